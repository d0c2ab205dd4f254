"""``scripts/train_movemodel.py`` under the name it had when the shipped move model was trained:
the model's provenance (``goengine/data/movemodel.npz``, its ``command``) gives this name, so the
command it records still runs. Same arguments, same output."""

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    script = Path(__file__).with_name("train_movemodel.py")
    sys.argv[0] = str(script)
    runpy.run_path(str(script), run_name="__main__")
