# goengine's own ko positions (family "ko"; MIT, as goengine). 13x13 boards sharing one design.
# White's group F2-F5 (liberty F6) lives only through the ko at E1/F1: White's stone E1 has one
# liberty, F1; Black captures it at F1 and then connects at E1 (the group dies), White connects at
# F1 (joined to G1). The ko threats: Black's A13 ataris the six white stones B13-G13 (White answers
# at H13), Black's F11 the single stone G11 (too small to answer), White's N8 the five black stones
# H8-M8 (Black answers at G8); some positions have a threat already connected, and some have moves
# after the set-up (loadsgf replays them; the ko and superko rule then applies). Everything else is
# settled (walls with one-point eyes) and the komi is set so that the ko decides the game. An answer
# lists every move that wins the game under area scoring with positional superko, as read by hand
# and confirmed by an exhaustive search of the ko and threat points; the area counts below are
# Black's minus White's. GNU Go 3.8 was asked with --level 10 --chinese-rules (reg_genmove gave the
# same move under its default rules); its "2" and "3" are wins by ko.

# Take the ko back after the threat is answered: Black had taken the ko at F1, White retook at E1,
# Black threatened at A13 and White answered at H13. Black retakes at F1; White has no threat left
# (H8-M8 are connected at G8) and Black connects next. Anything else lets White connect at F1.
# Area: +7 (Black wins by 5.5) / -3; komi 1.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_attack F2 -> 2 F1; reg_genmove -> F1.
loadsgf goengine/ko-01.sgf
1 reg_genmove black
#? [F1]

# The ko threat that works: White has just retaken at E1, so Black may not retake at once. A13
# (six stones in atari) must be answered, then Black retakes at F1 and White has no threat. F11
# threatens one stone only: White ignores it and connects at F1. Area: +7 / -3; komi 1.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_attack F2 -> 3 F1; reg_genmove -> A13.
loadsgf goengine/ko-02.sgf
2 reg_genmove black
#? [A13]

# The ko threat that works, for White: Black has just taken at F1 and White's F2-F5 is in atari
# (F6). White's N8 (five black stones in atari) must be answered at G8; White then retakes at E1
# and Black's only threat, F11, is too small. H11 or F11 threaten nothing, and Black connects at
# E1. Area: -5 after N8, +5 otherwise; komi 0.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8 disagrees: reg_genmove -> H11, dragon_status F2 -> dead: it does not see N8 as a
# threat Black must answer; we are sure it is (five stones against the ko, read out above).
loadsgf goengine/ko-03.sgf
3 reg_genmove white
#? [N8]

# Connect the ko: it is open (White's E1 has one liberty) and only Black has a threat (A13).
# White connects at F1 now; removing Black's threat first (H13) is too slow: Black takes at F1
# and White has no threat. Area: -5 after F1, +5 or more otherwise; komi 0.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_defend F2 -> 1 F1; reg_genmove -> F1.
loadsgf goengine/ko-04.sgf
4 reg_genmove white
#? [F1]

# Equal threats, take the ko first: the ko is open and each side has one threat (Black A13, White
# N8). Black takes at F1: White's N8 is answered at G8, White retakes, Black's A13 is answered at
# H13, Black retakes and White has no threat left. A13 first wastes Black's threat, and G8
# (connecting H8-M8) lets White connect the ko. Area: +5 / -3 or less; komi 0.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_attack F2 -> 2 F1; reg_genmove -> F1.
loadsgf goengine/ko-05.sgf
5 reg_genmove black
#? [F1]

# Ignore a small threat and win the ko: Black has taken at F1 and White's J8 threatens to capture
# the one black stone H8. Black connects at E1 (or captures F2-F5 at once at F6, the group being in
# atari); answering at G8 lets White retake at E1, and Black has no threat on this board.
# Area: +9 (Black wins by 4.5) / +1; komi 4.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_attack F2 -> 1 F6; owl_defend F2 -> 2 E1; reg_genmove -> E1.
loadsgf goengine/ko-06.sgf
6 reg_genmove black
#? [E1|F6]

# Take the ko back after the threat is answered, for White: Black took at F1, White threatened at
# N8 and Black answered at G8. White retakes at E1; Black's only threat left, F11, is too small,
# and White connects next. Anything else: Black connects at E1. Area: -5 / +5; komi 0.5.
# Source: constructed for goengine (a ko fight); answer read by hand and checked by an exhaustive
# search of the fight's points (area scoring, positional superko) and with GNU Go 3.8.
# GNU Go 3.8: owl_defend F2 -> 2 E1; reg_genmove -> E1.
loadsgf goengine/ko-07.sgf
7 reg_genmove white
#? [E1]
