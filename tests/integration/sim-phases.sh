#!/bin/sh
# --sim-phases and --sim-power (docs/simulator.md): a bad spec stops dvfstop (exit 2)
# before anything starts, with a message naming the option and the bad item;
# good ones run the simulated fine-tune to its end.
. "$top_srcdir/tests/lib.sh"

# bad NAME ARGS... : exits non-zero, the message on stderr
bad() {
	want=$1
	shift
	"$DVFSTOP" --no-config --batch --demo --sim-speed 0 --sim-steps 20 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_eq "$* exits" "$rc" 2
	expect_grep "$* says '$want'" "$want" "$T/err"
	# nothing was started: no summary on stdout
	[ -s "$T/out" ] && fail "$* still printed: $(cat "$T/out")" || ok "$*: nothing on stdout"
}
bad "dvfstop: --sim-phases: 'seq=1000:0': '0' is not a sequence length" --sim-phases 'eval=500:60,seq=1000:0'
bad "--sim-phases: 'foo=1:2': unknown phase 'foo'" --sim-phases foo=1:2
bad "--sim-phases: 'stall=10:x'" --sim-phases stall=10:x
bad "--sim-power: 'bogus' is not a calibration; known: reference energyinfra" --sim-power bogus
bad "--sim-power: 'vmax=abc'" --sim-power energyinfra,vmax=abc

# good (the config file takes them too)
printf 'sim-phases = eval=20:10,seq=40:256,stall=30:2\nsim-power = energyinfra,soc_w=17\n' >"$T/config"
"$DVFSTOP" --config "$T/config" --batch --demo --sim-speed 0 --sim-steps 60 >"$T/out" 2>"$T/err"
expect_eq "a good spec from the config: exit" "$?" 0
expect_grep "the fine-tune finished its 60 steps" "steps *60 of 60" "$T/out"
"$DVFSTOP" --no-config --batch --demo --sim-speed 0 --sim-steps 60 --sim-phases auto --sim-power reference \
	--summary-format json >"$T/out" 2>"$T/err"
expect_eq "auto: exit" "$?" 0
# the same run with no phases takes less time than with a 60-batch eval pass
# and a 20 s stall
t() { "$DVFSTOP" --no-config --batch --demo --sim-speed 0 --sim-steps 60 --noise 0 "$@" |
	sed -n 's/^  duration *\([0-9.]*\) s.*/\1/p'; }
plain=$(t)
phased=$(t --sim-phases eval=30:60,stall=10:20)
if awk -v a="$plain" -v b="$phased" 'BEGIN { exit !(b > a + 20) }'; then
	ok "phases lengthen the run: $plain s -> $phased s"
else
	fail "phases did not lengthen the run: $plain s -> $phased s"
fi
finish
