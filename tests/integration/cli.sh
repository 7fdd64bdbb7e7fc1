#!/bin/sh
# Command-line mistakes: the real binary says what was wrong, naming the word,
# option or file, exits 2 (1 when a named file cannot be used), prints
# nothing on stdout, and starts nothing.
. "$top_srcdir/tests/lib.sh"

# refuse WHAT RC PATTERN ARGS...: dvfstop ARGS exits RC with PATTERN on stderr
refuse() {
	what=$1 want_rc=$2 pat=$3
	shift 3
	rc=0
	"$DVFSTOP" "$@" >"$T/out" 2>"$T/err" </dev/null || rc=$?
	expect_eq "$what: exit status" "$rc" "$want_rc"
	expect_grep "$what: message" "$pat" "$T/err"
	[ ! -s "$T/out" ] && ok "$what: nothing on stdout" || fail "$what: stdout has: $(head -c 200 "$T/out")"
}

# No config file of the user's can change what is tested.
export XDG_CONFIG_HOME="$T/xdg"
umask 022   # a config file others can write is refused

refuse "an option typed as a command" 2 "unknown command 'replay'; did you mean the option --replay?" replay x.csv
refuse "a program without --" 2 "put -- before it: dvfstop \[OPTIONS\] -- sh \.\.\." sh -c true
refuse "a path without --" 2 "put -- before it: dvfstop \[OPTIONS\] -- \./train.sh" ./train.sh
refuse "an unknown word" 2 "unknown command 'nosuchword-xyz' (see dvfstop --help)" nosuchword-xyz
refuse "a short option without its value" 2 "option --interval needs a value: MS" -i
refuse "a long option without its value" 2 "option --record needs a value: FILE" --record
refuse "a flag given a value" 2 "option --demo takes no value" --demo=1
refuse "an unknown long option" 2 "option '--bogus' is unknown (see dvfstop --help)" --bogus
refuse "an ambiguous prefix" 2 "option '--sim' is ambiguous: --sim-model, --sim-seq-len, " --sim 1
refuse "an unknown short option" 2 "option -x is unknown" -x
refuse "a value out of range" 2 "interval: 0 is out of range (1 to 60000)" --interval 0
refuse "a value that is no number" 2 "interval: 'abc' is not a whole number" --interval abc
refuse "a stray argument" 2 "unexpected argument 'extra' (a command to run goes after --)" --demo extra
refuse "a bad summary format" 2 "summary-format: 'xml' is not text or json" --demo -b --summary-format xml

printf '# a comment\ninterval = fast\n' >"$T/config"
refuse "a bad config value" 2 "$T/config:2: 'fast' is not a whole number" --config "$T/config" --demo -b
refuse "a missing config file" 2 "cannot read config $T/none: No such file or directory" --config "$T/none"
# A trailing comment is a comment (issue 34): the run goes on with gpt2;
# every error of a config file names FILE:LINE, those found after it is
# read too (a model the simulator does not know); an unknown key gets the
# nearest key.
printf 'sim-model = gpt2   # the small one\njob-name = "run #3"  # quoted: the # is kept\n' >"$T/cfg-c"
"$DVFSTOP" --config "$T/cfg-c" --demo -b -n 2 --prom-textfile "$T/c.prom" >"$T/out" 2>"$T/err"
expect_eq "a config value with a trailing comment: exit status" "$?" 0
expect_grep "a config value with a trailing comment: the model is gpt2" 'model  *gpt2\|gpt2 fine-tune' "$T/out"
expect_grep "a quoted config value keeps its #" 'job_name="run #3"' "$T/c.prom"
printf '# models\nsim-model = gpt3\n' >"$T/cfg-m"
refuse "an unknown model in the config file" 2 "$T/cfg-m:2: sim-model: simulator: unknown model 'gpt3'" --config "$T/cfg-m" --demo -b -n 2
printf 'interval = 200\nsim-modle = gpt2\n' >"$T/cfg-k"
refuse "an unknown config key" 2 "$T/cfg-k:2: unknown key 'sim-modle'; did you mean sim-model?" --config "$T/cfg-k" --demo -b -n 2
printf 'sim-power = bogus\n' >"$T/cfg-p"
refuse "a bad config value checked after reading" 2 "$T/cfg-p:1: sim-power: 'bogus' is not a calibration" --config "$T/cfg-p" --demo -b -n 2
printf 'demo-layout = jp4\n' >"$T/cfg-l"
refuse "a bad config value the session finds" 1 "$T/cfg-l:1: demo-layout: 'jp4' is not jp6 or jp5" --config "$T/cfg-l" --demo -b -n 2
printf 'job-name = "run #3\n' >"$T/cfg-q"
refuse "a quote not closed" 2 "$T/cfg-q:1: no closing \" in \"run #3" --config "$T/cfg-q" --demo -b -n 2
refuse "a missing recording" 1 "cannot read $T/none.csv: No such file or directory" --replay "$T/none.csv" -b
refuse "a program that is not there" 127 "cannot run '$T/none': No such file or directory" --demo -b -n 2 -- "$T/none"

# Another board named beside --demo or --replay would be ignored without a word.
refuse "--demo with --sysfs-root" 2 "--demo simulates its own board; --sysfs-root /tmp names a board's tree" --demo --sysfs-root /tmp -b
refuse "--demo with --source nvml" 2 "--demo simulates its own board; --source nvml reads another" --demo --source nvml -b
refuse "--replay with --sysfs-root" 2 "--replay plays a recording; --sysfs-root /tmp names a board's tree" --replay "$T/none.csv" --sysfs-root /tmp
# ... but the config file's usual board does not stop a --demo.
printf 'source = nvml\n' >"$T/board.conf"
"$DVFSTOP" --config "$T/board.conf" --demo -b -n 2 >"$T/out" 2>"$T/err" && grep -q '^dvfstop summary' "$T/out" &&
	ok "a config file's board gives way to --demo" || fail "--demo with a config's board: $(cat "$T/err")"
"$DVFSTOP" --demo --source jetson -b -n 2 >"$T/out" 2>"$T/err" && ok "--demo --source jetson (its own source) is fine" ||
	fail "--demo --source jetson refused: $(cat "$T/err")"
# --batch --policy recommends (tests/integration/batch-recommend.sh); a
# policy that does not load stops it before it starts.
"$DVFSTOP" --demo -b -n 2 --policy builtin:ffg >"$T/out" 2>"$T/err" && grep -q '^dvfstop summary' "$T/out" &&
	ok "--batch --policy runs" || fail "--batch --policy: $(cat "$T/err")"
if grep -q "does not recommend" "$T/err"; then fail "--batch --policy: still says it does not recommend"
else ok "--batch --policy: no note that it does not recommend"; fi
expect_grep "--batch --policy: the recommendation in the summary" "recommend: 714 MHz" "$T/out"
refuse "--batch with a --policy that does not load" 1 "builtin:nope" --demo -b -n 2 --policy builtin:nope

# The commands that take words, not options.
refuse "policy without an action" 2 "dvfstop policy: check or show?" policy
refuse "policy with an unknown action" 2 "unknown sub-command 'bogus' (check or show)" policy bogus x
refuse "policy check without a policy" 2 "check: which policy?" policy check
refuse "policy show with two" 2 "show takes one policy ('b' is one too many)" policy show a b
refuse "convert without a log" 2 "dvfstop convert: which log?" convert
refuse "convert without -o" 2 "dvfstop convert: where to? (-o SESSION.csv)" convert x.log
refuse "convert -o without its value" 2 "dvfstop convert: option --output needs a value: FILE" convert x.log --output
refuse "convert with an unknown option" 2 "dvfstop convert: option '--bogus' is unknown (see dvfstop convert --help)" convert --bogus

# Every command's options go through the one parser: the monitor's wording,
# with the command's name, and a "did you mean" for a typo.
refuse "fit with a typo" 2 "dvfstop fit: option '--max-depth-gird' is unknown; did you mean --max-depth-grid? (see dvfstop fit --help)" fit --max-depth-gird 2 x.csv
refuse "evaluate with a flag given a value" 2 "dvfstop evaluate: option --json takes no value (see dvfstop evaluate --help)" evaluate --json=yes x.csv
refuse "recommend without a value" 2 "dvfstop recommend: option --util needs a value: PCT" recommend --util
refuse "sweep without a value" 2 "dvfstop sweep: option --dwell needs a value: N" sweep --demo --dwell
refuse "policy with an option" 2 "dvfstop policy: option '--bogus' is unknown" policy --bogus
refuse "the monitor with a typo" 2 "dvfstop: option '--duraton' is unknown; did you mean --duration?" --duraton 1
"$DVFSTOP" convert --help >"$T/out" 2>&1 && grep -q "Usage: dvfstop convert" "$T/out" && grep -q -- "-o, --output FILE" "$T/out" &&
	ok "convert --help: the usage from the table" || fail "convert --help: $(cat "$T/out")"

# One grammar for every command (the monitor's and each command's options
# through the one parser): a unique prefix, --name=value, a "did you mean"
# from the command's own options, messages naming the command and its --help.
# dvfstop sweep takes the monitor's options in the same table after its own.
refuse "sweep with a typo of its own option" 2 "dvfstop sweep: option '--sette' is unknown; did you mean --settle? (see dvfstop sweep --help)" sweep --demo --sette 1
refuse "sweep with a typo of a monitor option" 2 "dvfstop sweep: option '--sim-modle' is unknown; did you mean --sim-model? (see dvfstop sweep --help)" sweep --demo --sim-modle gpt2
refuse "sweep with an ambiguous prefix" 2 "dvfstop sweep: option '--se' is ambiguous: --settle, --select, --seed" sweep --demo --se 1
refuse "sweep with a bad monitor value" 2 "^dvfstop sweep: --interval: 'abc' is not a whole number" sweep --demo --interval abc
refuse "sweep with a stray argument" 2 "^dvfstop sweep: unexpected argument 'train.py' (a command to run goes after --)" sweep --demo train.py
refuse "sweep with options that do not go together" 2 "^dvfstop sweep: --demo simulates its own board" sweep --demo --sysfs-root /tmp
refuse "a misspelt command" 2 "unknown command 'recomend'; did you mean 'recommend'? (see dvfstop --help)" recomend --model bert-base
refuse "another misspelt command" 2 "unknown command 'swep'; did you mean 'sweep'?" swep --demo
refuse "recommend with a value of a flag" 2 "dvfstop recommend: option --json takes no value (see dvfstop recommend --help)" recommend --json=1
for c in recommend fit evaluate policy convert restore sweep; do
	refuse "$c with an unknown option" 2 "^dvfstop $c: option '--zzzzzz' is unknown (see dvfstop $c --help)$" "$c" --zzzzzz
	refuse "$c with an unknown short option" 2 "^dvfstop $c: option -Z is unknown (see dvfstop $c --help)$" "$c" -Z
done
# Unique prefixes and --name=value in the sweep, for its own options and
# the monitor's: --dwel (README's), --sett, --sim-st=, --sam.
"$DVFSTOP" sweep --no-config --demo --mode=exhaustive --count 2 --dwel 2s --sett 0 --sim-st=0 --sam 100000 \
	>"$T/out" 2>"$T/err" && grep -q "^sweep: exhaustive, 2 levels, dwell 2s, settle 0.0 s" "$T/out" &&
	ok "sweep: unique prefixes and --name=value of its own options and the monitor's" ||
	fail "sweep with prefixes: $(cat "$T/err" "$T/out" | head -n 5)"
# Each command's prefixes: recommend --mod is ambiguous (model, model-config,
# model-type), --list is --list-models; convert --out is --output; restore --sys.
"$DVFSTOP" recommend --list >"$T/out" 2>"$T/err" && grep -q bert-base "$T/out" &&
	ok "recommend --list: the prefix of --list-models" || fail "recommend --list: $(cat "$T/err")"
refuse "recommend --mod (three options)" 2 "dvfstop recommend: option '--mod' is ambiguous: --model, --model-config, --model-type" recommend --mod x
refuse "convert --out (a prefix) reaches the log check" 1 "dvfstop convert: .*$T/none" convert "$T/none" --out "$T/x.csv"

# -d (the dashboard's refresh, as top's) under --batch: said to have no
# effect there, pointing at --duration; the run goes on.  A config file's
# delay (for the dashboard) says nothing.
rc=0
"$DVFSTOP" --no-config --batch --demo -d 3 -n 2 >"$T/out" 2>"$T/err" || rc=$?
expect_eq "--batch -d 3: exit status" "$rc" 0
expect_grep "--batch -d 3: a warning" "^dvfstop: warning: -d/--delay is the dashboard's screen refresh and has no effect under --batch" "$T/err"
expect_grep "--batch -d 3: points at --duration" "--duration S stops the run after S seconds" "$T/err"
expect_grep "--batch -d 3: the summary" "^dvfstop summary" "$T/out"
"$DVFSTOP" --no-config --batch --demo --refresh 300 -n 2 >"$T/out" 2>"$T/err"
expect_grep "--batch --refresh: the same warning" "warning: --refresh is the dashboard's screen refresh" "$T/err"
mkdir -p "$T/xdg/dvfstop"
printf 'delay = 3\n' >"$T/xdg/dvfstop/config"
"$DVFSTOP" --batch --demo -n 2 >"$T/out" 2>"$T/err"
if grep -q warning "$T/err"; then fail "a config file's delay warned under --batch: $(cat "$T/err")"
else ok "a config file's delay: no warning under --batch"; fi
rm -f "$T/xdg/dvfstop/config"

# Abbreviations getopt accepts still work: --dur is --duration.
"$DVFSTOP" --demo -b --dur 0.3 --sim-speed 0 >"$T/out" 2>"$T/err" && ok "an unambiguous prefix is accepted" ||
	fail "--dur 0.3 refused: $(cat "$T/err")"
finish
