import sys

from goengine.cli import main

sys.exit(main())
