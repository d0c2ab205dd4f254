# goengine's own capturing races (family "capturing races"; MIT, as goengine). 9x9 boards: a black
# chain A6-F6 (under White's wall) against a white chain A5-F5, A4-F5 or A3-F5 (over Black's wall).
# Their liberties are pockets in the walls, which only the opponent can fill from outside, points in
# the white chain's row 5 that both touch (shared liberties), and one-point eyes at A4 (White) and
# A7 (Black). Everything else is settled; the komi is set so that the race decides the game. An
# answer lists every move that wins the game under area scoring, as read by hand and confirmed by an
# exhaustive search of the race's points (positional superko); the area counts below are Black's
# minus White's. GNU Go 3.8 was asked with --level 10 --chinese-rules (reg_genmove gave the same
# move under its default rules).

# Three liberties each, none shared, no eyes: Black A6-F6 (A7, C7, E7) against White A5-F5 (A4,
# C4, E4). Black to play fills one of White's liberties from outside and wins by one move; a pass
# or a move in Black's own liberties lets White win. Area: capture +25, captured -7; komi 7.5.
# Source: constructed for goengine (the basic liberty count, see Sensei's Library "Capturing
# race"); answer read by hand and checked by an exhaustive search of the fight's points (area
# scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A6 A5 -> 1 1 E4; reg_genmove -> A4.
loadsgf goengine/capturing-races-01.sgf
1 reg_genmove black
#? [A4|C4|E4]

# One shared liberty: Black A6-F6 has A7, C7 and the shared E5; White (A4-F5) has A3, C3 and E5.
# Black fills White's outside liberties first (A3 or C3) and wins; the shared E5 first takes a
# liberty from both chains and White, to move, wins by one. Area: +23 / -17; komi 7.5.
# Source: constructed for goengine (the shared liberty is filled last); answer read by hand and
# checked by an exhaustive search of the fight's points (area scoring, positional superko) and with
# GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A6 A5 -> 1 1 A3; reg_genmove -> A3.
loadsgf goengine/capturing-races-02.sgf
2 reg_genmove black
#? [A3|C3]

# Behind in the race: Black A6-F6 has three outside liberties (A7, C7, E7) and the shared B5 and
# E5; White (A4-F5) has two (A3, C3) and the same B5, E5. White cannot win the race, but filling
# Black's outside liberties now ends in seki (neither side can fill a shared liberty), which wins
# on the count; anything else lets Black fill A3 and C3 and capture.
# Area: seki -1 (White wins by 8.5), captured +25; komi 7.5.
# Source: constructed for goengine (seki as the defence in a lost race); answer read by hand and
# checked by an exhaustive search of the fight's points (area scoring, positional superko) and with
# GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A5 A6 -> 1 0 A7; reg_genmove -> C7.
loadsgf goengine/capturing-races-03.sgf
3 reg_genmove white
#? [A7|C7|E7]

# Eye against no eye: White (A3-F5) has the eye A4, the outside liberty D3 and the shared C5;
# Black (A6-F6) has B7, D7, F7 and C5. The eye makes the shared liberty White's, but White must
# still attack: B7, D7 or F7 wins; after D3, C5 or a pass, Black fills D3 and C5 and the eye is
# White's last liberty. Area: -20 / +25; komi 7.5.
# Source: constructed for goengine (eye against no eye, see Sensei's Library "Capturing race");
# answer read by hand and checked by an exhaustive search of the fight's points (area scoring,
# positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A5 A6 -> 1 1 D7; reg_genmove -> D7.
loadsgf goengine/capturing-races-04.sgf
4 reg_genmove white
#? [B7|D7|F7]

# Eye against no eye, White with no outside liberty: White (A3-F5) has its eye A4 and the shared
# C5; Black has A7, C7 and C5. Black's C5 leaves White only the eye, and Black takes it next;
# after anything else White fills A7, C7 and then C5. Area: +23 / -19; komi 7.5.
# Source: constructed for goengine (eye against no eye); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A6 A5 -> 1 1 C5; reg_genmove -> C5.
loadsgf goengine/capturing-races-05.sgf
5 reg_genmove black
#? [C5]

# One eye each: Black (A6-F6, B7, A8, B8) has the eye A7, outside liberties D7, F7 and the shared
# C5; White (A3-F5) has the eye A4, the outside liberty D3 and C5. Black to play captures with D3
# or C5; after anything else White reaches seki, which loses on the count.
# Area: capture +32, seki +2 to +4 (Black loses by 3.5 at best); komi 7.5.
# Source: constructed for goengine (one eye each, see Sensei's Library "Capturing race");
# answer read by hand and checked by an exhaustive search of the fight's points (area scoring,
# positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A6 A5 -> 1 1 D3; reg_genmove -> D3.
loadsgf goengine/capturing-races-06.sgf
6 reg_genmove black
#? [C5|D3]

# The same race, White to play: White cannot capture, but filling Black's outside liberties (D7 or
# F7) makes seki, which wins on the count; D3, C5 or a pass lets Black capture.
# Area: seki +2 (White wins by 5.5), captured +32; komi 7.5.
# Source: constructed for goengine (as capturing-races-06); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A5 A6 -> 1 0 D7; reg_genmove -> D7.
loadsgf goengine/capturing-races-07.sgf
7 reg_genmove white
#? [D7|F7]

# Three liberties each, White to play: Black A6-F6 (B7, D7, F7) against White A5-F5 (A4, C4, E4).
# White fills one of Black's outside liberties and wins by one move.
# Area: -7 / +25; komi 7.5.
# Source: constructed for goengine (the basic liberty count); answer read by hand and checked by an
# exhaustive search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: analyze_semeai A5 B6 -> 1 1 D7; reg_genmove -> D7.
loadsgf goengine/capturing-races-08.sgf
8 reg_genmove white
#? [B7|D7|F7]
