#!/bin/sh
# Build the simulated characterisation dataset (the seed paper's phase 1):
# an exhaustive sweep of every GPU clock level of the simulated Jetson AGX
# Orin for BERT and Pythia models x GLUE-like tasks.
#
#   data/characterise.sh DVFSTOP [OUTDIR]      (make data runs it)
#
# Writes OUTDIR/characterisation.csv (9 models x SST-2, QNLI, MRPC: 27
# workloads, the paper's characterisation tasks) and OUTDIR/evaluation.csv
# (the same models on the paper's unseen tasks, two each: 18 workloads).
# Every configuration has a fixed seed, so a rerun writes the same files.
#
# seq_len is the average tokens per training sample after dynamic padding
# (each batch padded to its longest sample), approximated per task; see
# docs/method.md for the reasoning.  They are approximations, not counts.
set -eu
DVFSTOP=${1:?usage: characterise.sh DVFSTOP [OUTDIR]}
OUT=${2:-$(dirname "$0")}
DWELL=${DWELL:-30steps}

seq_of() {
	case $1 in
	sst2) echo 32 ;; qnli) echo 128 ;; mrpc) echo 64 ;;
	cola) echo 16 ;; stsb) echo 32 ;; qqp) echo 48 ;;
	mnli) echo 64 ;; rte) echo 256 ;; wnli) echo 64 ;;
	*) echo "characterise.sh: unknown task $1" >&2; exit 2 ;;
	esac
}

MODELS="bert-small bert-medium bert-base bert-large pythia-31m pythia-70m pythia-160m pythia-410m pythia-1b"
# Two unseen tasks per model, in rotation, so that each appears three times.
EVAL_TASKS="cola:rte stsb:mnli qqp:wnli mnli:rte cola:wnli stsb:qqp rte:mnli wnli:cola qqp:stsb"

# sweep FILE WORKLOAD MODEL TASK SEED
sweep() {
	seq=$(seq_of "$4")
	printf '  %-28s seq_len %3s  seed %2s\n' "$2" "$seq" "$5"
	"$DVFSTOP" sweep --demo --mode exhaustive --dwell "$DWELL" --append --out "$1" \
		--workload "$2" --sim-model "$3" --sim-seq-len "$seq" --seed "$5" >/dev/null
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/dvfstop-data.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "characterisation (SST-2, QNLI, MRPC):"
seed=1
for m in $MODELS; do
	for t in sst2 qnli mrpc; do
		sweep "$TMP/characterisation.csv" "$m/$t" "$m" "$t" "$seed"
		seed=$((seed + 1))
	done
done

echo "evaluation (unseen tasks):"
seed=101
set -- $EVAL_TASKS
for m in $MODELS; do
	pair=$1; shift
	for t in "${pair%%:*}" "${pair##*:}"; do
		sweep "$TMP/evaluation.csv" "$m/$t" "$m" "$t" "$seed"
		seed=$((seed + 1))
	done
done

mv "$TMP/characterisation.csv" "$OUT/characterisation.csv"
mv "$TMP/evaluation.csv" "$OUT/evaluation.csv"
echo "wrote $OUT/characterisation.csv and $OUT/evaluation.csv"
