#!/bin/sh
# A FIFO (or a device, a link) at the name of a file dvfstop reads or
# writes never blocks it (docs/security.md, "What a hostile file can do"):
# every reader (--config and the default config, policy check, --policy,
# recommend --model-config, fit, evaluate) and every
# writer (--record, --log, --learn, fit -o, convert -o, sweep --out) ends
# at once with a message that names the file and says what it is.  Each
# run is polled with a deadline far beyond its normal second; one still
# running then is killed and fails the test.  As root: a config that is a
# link another user planted (at the file or at its folder) to a root-only
# file is refused, and nothing of that file is printed.
. "$top_srcdir/tests/lib.sh"
D="$DVFSTOP"
unset XDG_CONFIG_HOME
export HOME="$T/home"
mkdir -p "$HOME"
cd "$T" || exit 99

# ends WHAT PATTERN CMD...: CMD ends within 60 s, not with status 0, and
# its stderr holds PATTERN; else it is killed (by its pid) and fails.
ends() {
	what=$1 pat=$2
	shift 2
	rm -f "$T/rc" "$T/pid"
	( "$@" </dev/null >"$T/out" 2>"$T/err" &
	  echo $! >"$T/pid"
	  wait $!
	  echo $? >"$T/rc" ) &
	sub=$!
	n=600
	while [ ! -s "$T/rc" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	if [ ! -s "$T/rc" ]; then
		kill -KILL "$(cat "$T/pid")" 2>/dev/null
		wait $sub 2>/dev/null
		fail "$what: still running after 60 s (blocked; killed)"
		return
	fi
	wait $sub 2>/dev/null
	rc=$(cat "$T/rc")
	if [ "$rc" -ne 0 ] && grep -q -- "$pat" "$T/err"; then
		ok "$what: ended (status $rc), '$pat'"
	else
		fail "$what: status $rc, stderr: $(head -c 300 "$T/err")"
	fi
}

FIFO="(refused: not a regular file)"
mkfifo in.fifo
# ---- readers ---------------------------------------------------------------
ends "--config FIFO" "config in.fifo: a FIFO $FIFO" "$D" --config in.fifo --demo -b -n 1
mkdir -p "$HOME/.config/dvfstop"
mkfifo "$HOME/.config/dvfstop/config"
ends "the default config a FIFO" "config $HOME/.config/dvfstop/config: a FIFO $FIFO" "$D" --demo -b -n 1
rm -f "$HOME/.config/dvfstop/config"
ends "policy check FIFO" "in.fifo: cannot open: a FIFO $FIFO" "$D" policy check in.fifo
ends "--policy FIFO" "in.fifo: cannot open: a FIFO $FIFO" "$D" --no-config --demo -b -n 1 --policy in.fifo
ends "recommend --model-config FIFO" "in.fifo: cannot open: a FIFO $FIFO" "$D" recommend --model-config in.fifo
ends "fit FIFO" "in.fifo: a FIFO $FIFO" "$D" fit in.fifo -o "$T/p.tree"
ends "evaluate FIFO" "in.fifo: a FIFO $FIFO" "$D" evaluate in.fifo
ends "--replay a device" "/dev/zero: not a regular file or FIFO" "$D" --no-config -b --replay /dev/zero
ln -s in.fifo link.fifo
ends "a link to a FIFO is the FIFO" "link.fifo: cannot open: a FIFO $FIFO" "$D" policy check link.fifo

# ---- writers: a FIFO without a reader at the output's name -------------------
for f in rec log learn fit conv sweep; do mkfifo "$f.out"; done
ends "--record FIFO" "--record rec.out: a FIFO $FIFO" "$D" --no-config --demo -b -n 2 --record rec.out
ends "--log FIFO" "--log log.out: a FIFO $FIFO" "$D" --no-config --demo -b -n 2 --log log.out -- true
ends "--learn FIFO" "--learn learn.out: a FIFO $FIFO" "$D" --no-config --demo -b -n 2 --govern --learn learn.out
ends "fit -o FIFO" "-o fit.out: a FIFO $FIFO" "$D" fit "$FIX/sweeps/single-workload.csv" -o fit.out
ends "convert -o FIFO" "cannot record to conv.out: a FIFO $FIFO" \
	"$D" convert "$FIX/tegrastats/jp6_agx_orin.txt" -o conv.out
ends "sweep --out FIFO" "--out sweep.out: a FIFO $FIFO" "$D" sweep --no-config --demo --out sweep.out
ends "--record a device" "--record /dev/null: a device $FIFO" "$D" --no-config --demo -b -n 2 --record /dev/null
for f in rec log learn fit conv sweep; do
	[ -p "$f.out" ] || fail "$f.out is no longer the FIFO planted there"
done

# ---- the config through another user's link (root only) --------------------------
if [ "$(id -u)" = 0 ]; then
	other=$(id -u nobody)
	printf 'root:$6$SeCrEtHaSh:19000:0:99999:7:::\n' >"$T/shadow"
	chmod 600 "$T/shadow"
	ln -s "$T/shadow" "$HOME/.config/dvfstop/config"
	chown -h nobody "$HOME/.config/dvfstop/config"
	ends "a user's config linked to a root-only file, read by root" \
		"config $HOME/.config/dvfstop/config: a symbolic link of uid $other (refused" "$D" --demo -b -n 1
	grep -q SeCrEt "$T/err" "$T/out" && fail "the linked file's bytes were printed: $(cat "$T/err")" ||
		ok "nothing of the linked file printed"
	ends "the same as --config" "a symbolic link of uid $other (refused" "$D" --config "$HOME/.config/dvfstop/config" --demo -b -n 1
	grep -q SeCrEt "$T/err" "$T/out" && fail "--config: the linked file's bytes were printed" || ok "--config: nothing printed"
	# the folder a link: ~/.config/dvfstop -> a root-only folder
	rm -rf "$HOME/.config/dvfstop"
	mkdir -m 700 "$T/rootdir"
	cp "$T/shadow" "$T/rootdir/config"
	ln -s "$T/rootdir" "$HOME/.config/dvfstop"
	chown -h nobody "$HOME/.config/dvfstop"
	ends "the config's folder a link of another user's" "a symbolic link of uid $other (refused" "$D" --demo -b -n 1
	grep -q SeCrEt "$T/err" "$T/out" && fail "folder link: the file's bytes were printed" || ok "folder link: nothing printed"
	# root's own link is followed (its target is root's)
	rm -f "$HOME/.config/dvfstop"
	mkdir -p "$HOME/.config/dvfstop"
	printf 'interval = 100\n' >"$T/rootconf"
	chmod 644 "$T/rootconf"
	ln -s "$T/rootconf" "$HOME/.config/dvfstop/config"
	"$D" --demo -b -n 1 >/dev/null 2>"$T/err" && ok "root's own link to its config is followed" ||
		fail "root's own config link: $(cat "$T/err")"
else
	echo "skip: another user's link needs root to make"
fi
finish
