# goengine's own life-and-death positions (family "life and death"; MIT, as goengine). 9x9 boards:
# the group in question has no outside liberty, everything else is settled (solid walls with one-
# point eyes: no invasion, no ko threat anywhere) and the komi is set so that the group's life
# decides the game. An answer lists every move that wins the game under area scoring, as read by
# hand and confirmed by an exhaustive search of the fight's points (positional superko); the area
# counts below are Black's minus White's at the end of the best play. GNU Go 3.8 was asked with
# --level 10 --chinese-rules (reg_genmove gave the same move under its default rules); its "1" means
# it reads a plain win, "2" a win by ko.

# Straight three. White's corner group (A2-D2, D1) has only the eye space A1-B1-C1. Black's B1
# in the middle kills (W A1, B C1 captures); after A1 or C1, White plays B1 for two eyes.
# Area: White dead +9, alive -7; komi 1.5.
# Source: constructed for goengine (the standard straight-three shape, see Sensei's Library
# "Straight three"); answer read by hand and checked by an exhaustive search of the fight's points
# (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: dragon_status B2 -> critical B1; owl_attack B2 -> 1 B1; reg_genmove -> B1.
loadsgf goengine/life-and-death-01.sgf
1 reg_genmove black
#? [B1]

# Bent three in the corner. White (A3, B3, B2, C2, C1) has the eye space A1, A2, B1: White's A1
# at the bend makes two eyes, A2 and B1; B1 or A2 leaves a two-point eye and Black's A1 kills.
# Area: alive -7, dead +9; komi 1.5.
# Source: constructed for goengine (the standard bent-three shape, see Sensei's Library "Bent
# three"); answer read by hand and checked by an exhaustive search of the fight's points (area
# scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_defend B2 -> 1 A1; reg_genmove -> A1.
loadsgf goengine/life-and-death-02.sgf
2 reg_genmove white
#? [A1]

# Bulky five. White's corner group (A3-D3, C2, D2, D1) encloses A1, B1, C1, A2, B2. Black's B1,
# the point touching three of the others, kills: White's captures inside leave a dead shape whose
# vital point Black takes again. Any other Black move lets White play B1 and live.
# Area: dead +9, alive -15; komi 1.5.
# Source: constructed for goengine (the standard bulky-five shape, see Sensei's Library "Bulky
# five"); answer read by hand and checked by an exhaustive search of the fight's points (area
# scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: dragon_status C2 -> critical B1; owl_attack C2 -> 1 B1; reg_genmove -> B1.
loadsgf goengine/life-and-death-03.sgf
3 reg_genmove black
#? [B1]

# The same bulky five, White to play: B1, the vital point, makes two eyes; after any other White
# move Black plays B1 and kills. Area: alive -15, dead +9; komi 1.5.
# Source: constructed for goengine (as life-and-death-03, the bulky five); answer read by hand and
# checked by an exhaustive search of the fight's points (area scoring, positional superko) and with
# GNU Go 3.8.
# GNU Go 3.8: owl_defend C2 -> 1 B1; reg_genmove -> B1.
loadsgf goengine/life-and-death-04.sgf
4 reg_genmove white
#? [B1]

# Rabbity six. White's group at the bottom (B1-F4) encloses C2, D2, E2, D1, E1, D3. Black's D2,
# the centre touching four of them, kills (B D2, W D1, B E2, W E1, B C2, W D3 captures three
# stones, B D2 again and the group dies); any other Black move lets White take D2. Area: dead +27,
# alive -9; komi 7.5.
# Source: constructed for goengine (the standard rabbity-six shape, see Sensei's Library
# "Rabbity six"); answer read by hand and checked by an exhaustive search of the fight's points
# (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: dragon_status D4 -> critical D2; owl_attack D4 -> 1 D2; reg_genmove -> D2.
loadsgf goengine/life-and-death-05.sgf
5 reg_genmove black
#? [D2]

# The same rabbity six, White to play. D2, the vital point, lives; D1 and E2 live too (found by the
# exhaustive search): after W D1, B D2, W E2 (or W E2, B D2, W D1) E1 is an eye, and White's D3
# captures the black stones at C2-D2 for the second; after W E2, B D1, White takes D2. E1, C2 or
# D3 lets Black take D2 and kill. Area: alive -9, dead +27; komi 7.5.
# Source: constructed for goengine (as life-and-death-05); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_defend D4 -> 1 D2; reg_genmove -> D2 (in the answer; it names only the vital
# point).
loadsgf goengine/life-and-death-06.sgf
6 reg_genmove white
#? [D1|D2|E2]

# Corner, White to live. White (A3-D3, D2) has A2-C2 and the first line A1-D1, D1 next to
# Black's E1. Only the 2-1 point B1 makes two eyes (W B1, B B2, W A2, B C1, W C2 captures B2:
# eyes at A1 and B2); the natural block at D1 is met by Black's B1 and White gets one eye.
# Area: alive -11, dead +9; komi 1.5.
# Source: constructed for goengine (a second-line corner shape); answer read by hand and checked by
# an exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_defend D3 -> 1 B1 (owl_attack D3 -> 1 D1); reg_genmove -> B1.
loadsgf goengine/life-and-death-07.sgf
7 reg_genmove white
#? [B1]

# Corner, Black to kill. White (A3-D3, A2, C2, D2) has B2 and the first line A1-D1. Black's B1
# is the vital point (W A1, B C1, W D1, B B2 and White is captured); after C1 or D1 White plays
# B1 for eyes at A1 and B2. Area: dead +9, alive -11; komi 1.5.
# Source: constructed for goengine (a second-line corner shape); answer read by hand and checked by
# an exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: dragon_status D3 -> critical B1; owl_attack D3 -> 1 B1; reg_genmove -> B1.
loadsgf goengine/life-and-death-08.sgf
8 reg_genmove black
#? [B1]

# Corner, Black to kill. White (A3-D3, B2, D2) has A2, C2 and the first line A1-D1. Black's
# placement at C1 leaves White only a ko (W A1, B B1, W D1, B A2 takes; later the bent four in the
# corner), and White has no ko threat anywhere on this board, so White dies. After B1 or D1,
# White's C1 makes two eyes. Area: dead +9, alive -13; komi 1.5.
# Source: constructed for goengine (a second-line corner shape); answer read by hand and checked by
# an exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_attack D3 -> 2 C1 (a ko); owl_defend D3 -> 1 C1; reg_genmove -> C1.
loadsgf goengine/life-and-death-09.sgf
9 reg_genmove black
#? [C1]
