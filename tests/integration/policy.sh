#!/bin/sh
# dvfstop recommend / policy check / policy show: output and exit codes.
set -u
: "${DVFSTOP:?}" "${top_srcdir:?}"
FIX="$top_srcdir/tests/fixtures"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-policy.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT
fails=0

# run EXPECTED_RC CMD...: output in $TMP/out and $TMP/err
run() {
	want=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "FAIL: '$*' exited $rc, expected $want"; sed 's/^/  out: /' "$TMP/out"; sed 's/^/  err: /' "$TMP/err"
		fails=$((fails + 1))
	fi
}
# has FILE TEXT: fixed string in out or err
has() {
	if ! grep -qF -- "$2" "$TMP/$1"; then
		echo "FAIL: $1 of the last command lacks '$2'"; sed 's/^/  /' "$TMP/$1"
		fails=$((fails + 1))
	fi
}

# The issue's example, with the catalog and declared values.
run 0 "$DVFSTOP" recommend --model bert-base --seq-len 128 --util 87
has out "path:      layers=12 (catalog) > 7 -> seq_len=128 (declared) > 53 -> gpu_util=87% (declared) > 22 -> 816 MHz"
has out "recommend: 816 MHz"

# Shallow, short: 510 MHz without utilisation.
run 0 "$DVFSTOP" recommend --model pythia-70m --seq-len 20
has out "recommend: 510 MHz"

# README's example: no --util, which a command line cannot measure: the
# side of a fine-tune that keeps the GPU busy, said as assumed, with what a
# low utilisation would give.
run 0 "$DVFSTOP" recommend --model bert-base --seq-len 128
has out "gpu_util=100% (assumed) > 22 -> 816 MHz"
has out "recommend: 816 MHz"
has out "note:      no --util: gpu_util taken as 100% (a fine-tune that keeps the GPU busy);"
has out "a low one gives 1020 MHz"
run 0 "$DVFSTOP" recommend --model bert-base --seq-len 128 --json
has out '"source":"assumed"'
has out '"gpu_util_assumed":100'
has out '"mhz_if_gpu_util_low":1020'
# No assumption where the path needs no utilisation, or when it is given.
run 0 "$DVFSTOP" recommend --model bert-base --seq-len 20
if grep -q "assumed" "$TMP/out"; then echo "FAIL: an assumption where none is needed"; fails=$((fails + 1)); fi

# Any other missing feature withholds the recommendation and says what to give.
run 1 "$DVFSTOP" recommend --model bert-base
has out "seq_len=n/a (missing) -> no recommendation"
has out "recommend: none: seq_len is missing (give --seq-len"

# Orin NX table (306-918 MHz): 1020 maps to 918.
run 0 "$DVFSTOP" recommend --model gpt2 --seq-len 128 --util 10 \
	--levels 306,408,510,612,714,816,918
has out "-> 1020 MHz (board: 918 MHz)"
has out "recommend: 918 MHz (the policy says 1020 MHz"

# config.json of each spelling; declared values override the config.
run 0 "$DVFSTOP" recommend --model-config "$FIX/hf-configs/pythia-160m.json" --seq-len 40
has out "layers=12 (config) > 7 -> seq_len=40 (declared) <= 53 -> 714 MHz"
run 0 "$DVFSTOP" recommend --model-config "$FIX/hf-configs/gpt2.json" --layers 6 --seq-len 40
has out "layers=6 (declared) <= 7 -> seq_len=40 (declared) > 32.5 -> 612 MHz"
run 0 "$DVFSTOP" recommend --model bert-tiny --model-config "$FIX/hf-configs/tinyllama-1.1b.json" --seq-len 10
has out "layers=22 (config)"
run 1 "$DVFSTOP" recommend --model-config "$FIX/hf-configs/broken-syntax.json"
has err "broken-syntax.json:4: not valid JSON"
run 0 "$DVFSTOP" recommend --model-config "$FIX/hf-configs/t5-small.json" --seq-len 10
has err "t5-small.json: \"T5ForConditionalGeneration\" is not an encoder-only or decoder-only family"

# Other policies.
run 0 "$DVFSTOP" recommend --policy builtin:ffg
has out "recommend: 714 MHz"
run 0 "$DVFSTOP" recommend --policy "$FIX/policy/handmade.policy" --model pythia-160m
has out "gpu_util=50% (default) > 30.5 -> 816 MHz"
run 1 "$DVFSTOP" recommend --policy "$FIX/policy/bad-number.policy" --model gpt2
has err "bad-number.policy:5: bad number '5x3'"

# JSON.
run 0 "$DVFSTOP" recommend --model bert-base --seq-len 128 --util 87 --json
has out '"leaf_mhz":816'
has out '"clock_hz":816000000'
has out '"source":"catalog"'
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["recommended"] and d["path"][2]["feature"]=="gpu_util" and d["path"][2]["branch"]=="false", d' "$TMP/out" \
		|| { echo "FAIL: --json output"; fails=$((fails + 1)); }
fi
run 1 "$DVFSTOP" recommend --model bert-base --json
has out '"recommended":false'
has out '"missing":"seq_len"'

# Bad input (1) and usage (2).
run 1 "$DVFSTOP" recommend --util 150
has err "--util '150'"
run 1 "$DVFSTOP" recommend --layers 0
run 1 "$DVFSTOP" recommend --model-type seq2seq
run 1 "$DVFSTOP" recommend --model no-such-model
has err "unknown model 'no-such-model'"
run 1 "$DVFSTOP" recommend --levels 918000000
has err "looks like Hz; give MHz (918)"
run 2 "$DVFSTOP" recommend --frobnicate
run 2 "$DVFSTOP" recommend --layers
run 2 "$DVFSTOP" recommend stray
run 0 "$DVFSTOP" recommend --help
has out "Usage: dvfstop recommend"
run 0 "$DVFSTOP" recommend --list-models
has out "pythia-410m"

# policy check: file:line messages, exit 1.
run 0 "$DVFSTOP" policy check "$FIX/policy/handmade.policy"
has out "handmade.policy: ok: policy handmade-1, 3 splits, 4 leaves, depth 2"
for f in unknown-feature:5 missing-child:3 bad-number:5 bad-indent:5 trailing:6 empty:1; do
	run 1 "$DVFSTOP" policy check "$FIX/policy/${f%%:*}.policy"
	has err "${f%%:*}.policy:${f#*:}: "
done
run 0 "$DVFSTOP" policy check builtin:mlg
run 2 "$DVFSTOP" policy
run 2 "$DVFSTOP" policy check
run 2 "$DVFSTOP" policy frob x
run 0 "$DVFSTOP" policy --help
has out "Usage: dvfstop policy check"

# policy show prints the DESIGN.md tree; its output reads back the same.
run 0 "$DVFSTOP" policy show builtin:mlg
cp "$TMP/out" "$TMP/mlg.policy"
grep -v '^#' "$TMP/mlg.policy" >"$TMP/mlg.tree"
cat >"$TMP/want.tree" <<'END'
dvfstop-policy 1
name mlg
node layers <= 7
  node seq_len <= 32.5
    leaf 510
    leaf 612
  node seq_len <= 53
    leaf 714
    node gpu_util <= 22
      leaf 1020
      leaf 816
END
cmp -s "$TMP/mlg.tree" "$TMP/want.tree" || { echo "FAIL: policy show builtin:mlg"; diff "$TMP/want.tree" "$TMP/mlg.tree"; fails=$((fails + 1)); }
run 0 "$DVFSTOP" policy show "$TMP/mlg.policy"
cmp -s "$TMP/out" "$TMP/mlg.policy" || { echo "FAIL: show does not round-trip"; fails=$((fails + 1)); }
run 1 "$DVFSTOP" policy show "$FIX/policy/trailing.policy"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
exit 0
