# goengine's own connection positions (family "connection"; MIT, as goengine). 9x9 boards: White's
# stones in the lower left corner live only by connecting along the bottom to White's group on the
# right (columns G-J), under Black's wall C3-F3; everything else is settled and the komi (7.5) is
# set so that the connection decides the game. An answer lists every move that wins the game under
# area scoring, as read by hand and confirmed by an exhaustive search of the points C1-F2
# (positional superko); the area counts below are Black's minus White's. GNU Go 3.8 was asked with
# --level 10 --chinese-rules (reg_genmove gave the same move under its default rules).

# The peep must be answered: White's corner group (A2-C2, B1, C1, with the eye point A1) reaches
# White's E1 only through D1, and Black's D2, joined to the wall, peeps at it. White connects at
# D1; after anything else Black's D1 cuts and the corner group, with one eye, dies.
# Area: connected -3, cut +17; komi 7.5.
# Source: constructed for goengine (answer a peep at the cutting point); answer read by hand and
# checked by an exhaustive search of the fight's points (area scoring, positional superko) and with
# GNU Go 3.8.
# GNU Go 3.8: connect A2 G1 -> 1 D1; reg_genmove -> D1.
loadsgf goengine/connection-01.sgf
1 reg_genmove white
#? [D1]

# Connect along the first line: White's corner stones (A1-B2) and White's E1-F2 are apart by
# C1-D2. C1 or D1 connects (the remaining gaps are miai, and a black stone thrown in on the first
# line is captured); C2 or D2 on the second line fails to Black's D1 (W C2, B D1, W C1, B D2).
# Area: connected -3, cut +17; komi 7.5.
# Source: constructed for goengine (a first-line connection); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: connect A1 G1 -> 1 C1; reg_genmove -> D1.
loadsgf goengine/connection-02.sgf
2 reg_genmove white
#? [C1|D1]

# Throw-in, connect and die: White's corner stones (A1-B2) would connect through C1 to the stone
# D1 and on through E1. Black throws in at C1: if White takes it at C2, Black's D2 is atari and
# connecting at C1 leaves the whole chain one liberty, E1, where Black captures it; if White
# plays D2 instead, Black's C2 captures the corner. C2 or D2 first lets White connect.
# Area: +15 / -3; komi 7.5.
# Source: constructed for goengine (the connect-and-die tesuji, see Sensei's Library
# "Connect and die"); answer read by hand and checked by an exhaustive search of the fight's points
# (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: disconnect A1 G1 -> 1 C1; reg_genmove -> C1.
loadsgf goengine/connection-03.sgf
3 reg_genmove black
#? [C1]

# Throw-in, connect and die: White's six corner stones (A1-C2) have D1 and D2; White's E1 stone
# reaches F2 through F1. Black throws in at D1: White's capture at D2 is met by E2 (atari), and
# connecting at D1 joins E1 with one liberty, F1, where Black captures everything. D2 or E2
# first lets White connect at D1 and F1. Area: +16 / -3; komi 7.5.
# Source: constructed for goengine (the connect-and-die tesuji); answer read by hand and checked by
# an exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: disconnect A1 G1 -> 1 D1; reg_genmove -> D1.
loadsgf goengine/connection-04.sgf
4 reg_genmove black
#? [D1]

# Double atari with a snapback: White's corner chain (A1, B1, A2-D2) has C1 and D1; White's E1
# stone has D1 and F1. Black's D1 ataris both: capturing it at C1 leaves the chain the single
# liberty D1 and Black takes seven stones back; saving E1 at F1 lets Black capture at C1.
# Area: +16 / -5; komi 7.5.
# Source: constructed for goengine (a snapback, see Sensei's Library "Snapback"); answer read by
# hand and checked by an exhaustive search of the fight's points (area scoring, positional superko)
# and with GNU Go 3.8.
# GNU Go 3.8: disconnect A1 G1 -> 1 D1; reg_genmove -> D1.
loadsgf goengine/connection-05.sgf
5 reg_genmove black
#? [D1]

# Save the cutting stone: Black's E1 separates White's corner chain (A1-D1, A2, B2) from F1 but is
# in atari. Black's E2 joins it to the wall, and the corner chain, left with C2 and D2, is
# captured; anything else lets White take E1 at E2 and connect. Area: +17 / -1; komi 7.5.
# Source: constructed for goengine (keep the cutting stone); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: disconnect A1 G1 -> 1 E2; reg_genmove -> E2.
loadsgf goengine/connection-06.sgf
6 reg_genmove black
#? [E2]

# Capture the cutting stone from the right side: Black's E1 (liberties E2, F1) cuts White's
# D1-D2 from F2. White's E2 joins D2 to F2 and leaves E1 in atari, and C1/C2 join the corner to
# D1-D2 as miai; White's F1 instead lets Black connect out at E2, and the corner and D1-D2 die.
# Area: -5 / +17; komi 7.5.
# Source: constructed for goengine (atari from the side that connects); answer read by hand and
# checked by an exhaustive search of the fight's points (area scoring, positional superko) and with
# GNU Go 3.8.
# GNU Go 3.8: connect A1 G1 -> 1 E2; reg_genmove -> E2.
loadsgf goengine/connection-07.sgf
7 reg_genmove white
#? [E2]
