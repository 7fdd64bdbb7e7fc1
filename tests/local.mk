# tests/: unit tests (cmocka), integration and terminal tests (shell + tmux).
# Each folder's fragment adds its own; this one holds the shared pieces.
EXTRA_DIST += tests/lib.sh
