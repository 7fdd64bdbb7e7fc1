# tui/: the ncurses front end.
