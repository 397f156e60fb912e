#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The libFuzzer targets of fuzz/ (built by `make fuzz-build`), run and checked.
#
#   scripts/fuzz.sh run SECONDS TARGET...  fuzz each target SECONDS (two at a
#        time on two CPUs or more), its corpus kept in $FUZZ_OUT/corpus/TARGET
#        across runs; then the parse corpus through the BPF programs
#        (`dynpf replay --check-native`): BPF and native must agree on every
#        input. Prints each target's executions and corpus size.
#   scripts/fuzz.sh smoke SECONDS          each target SECONDS from its seeds
#        alone (a fresh corpus), then its regression inputs (fuzz/regress/)
#        once each, then the BPF check of what it made: what `make test` runs.
#
# Seeds: every frame of pcap-tests/ (parse), tests/rules/ (rules), fuzz/seeds/.
# A finding is saved as $FUZZ_OUT/crash-TARGET-*; fixed, it goes to
# fuzz/regress/TARGET/ with a name saying what it was.
set -uo pipefail

FUZZ_OUT=${FUZZ_OUT:-.output-fuzz} # corpora, logs, findings
FUZZ_BIN=${FUZZ_BIN:-$FUZZ_OUT}    # the fuzz_* binaries
BUILD=${BUILD:-build}
DYNPF=$BUILD/dynpf
TARGETS=(parse rules ctrlmsg request)
NJOBS=$(($(nproc) >= 2 ? 2 : 1))

die() { echo "fuzz.sh: $*" >&2; exit 2; }

# seed TARGET DIR: the target's seeds into DIR.
seed() {
	local t=$1 d=$2
	mkdir -p "$d"
	case $t in
	parse) python3 scripts/fuzz_corpus.py frames "$d" pcap-tests/*.pcap >/dev/null ;;
	rules)
		cp tests/rules/*.rules "$d"/
		# The examples of the rule language's documentation, a file each.
		awk '/^```/ { inb = !inb; n++; next } inb { print > (d "/doc-" n) }' \
			d="$d" docs/rules.md
		;;
	esac
	[ -d "fuzz/seeds/$t" ] && cp fuzz/seeds/"$t"/* "$d"/ 2>/dev/null
	[ -d "fuzz/regress/$t" ] && cp fuzz/regress/"$t"/* "$d"/ 2>/dev/null
	return 0
}

# fuzz1 TARGET SECONDS CORPUS LOG: one libFuzzer run; 0 without a finding.
fuzz1() {
	local t=$1 secs=$2 corpus=$3 log=$4 bin=$FUZZ_BIN/fuzz_$1 seeds=$FUZZ_OUT/seed/$1
	[ -x "$bin" ] || die "$bin: not built (make fuzz-build)"
	rm -rf "$seeds"
	seed "$t" "$seeds"
	mkdir -p "$corpus"
	# Frames up to 9216 bytes (jumbo); text inputs up to 16 KB.
	local max=16384
	[ "$t" = parse ] && max=9216
	"$bin" -max_total_time="$secs" -max_len=$max -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$FUZZ_OUT/crash-$t-" \
		"$corpus" "$seeds" >"$log" 2>&1
}

# report TARGET LOG RC: one line.
report() {
	local t=$1 log=$2 rc=$3 execs units
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	units=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	if [ "$rc" = 0 ]; then
		printf 'fuzz %-8s %12s executions, corpus %s inputs: no finding\n' "$t" \
			"${execs:-?}" "${units:-?}"
	else
		printf 'fuzz %-8s FINDING (exit %s), %s executions; %s:\n' "$t" "$rc" \
			"${execs:-?}" "$log"
		grep -E 'ERROR|SUMMARY|fuzz_[a-z]+: |runtime error|Test unit written' "$log" |
			head -8 | sed 's/^/    /'
	fi
}

# bpf_check DIR...: the frames through the BPF programs and the native parse.
bpf_check() {
	local pcap=$FUZZ_OUT/corpus-frames.pcap
	[ -x "$DYNPF" ] || die "$DYNPF: not built (make)"
	python3 scripts/fuzz_corpus.py pcap "$pcap" "$@" >"$FUZZ_OUT/corpus-frames.idx" ||
		return 1
	# With the built-in TLV families declared at runtime too: each declared
	# walk must find its family's TLVs, in BPF and natively.
	if "$DYNPF" replay "$pcap" --check-native -q --rules tests/rules/builtin-decl.rules \
		--check-decl >"$FUZZ_OUT/corpus-frames.log" 2>&1; then
		echo "fuzz parse: $(wc -l <"$FUZZ_OUT/corpus-frames.idx") corpus frames through" \
			"BPF_PROG_TEST_RUN (xdp, xdp-frags, tc): BPF and native agree, and the" \
			"declared walks with the compiled ones"
		return 0
	fi
	echo "fuzz parse: BPF and native, or declared and compiled walks, disagree ($FUZZ_OUT/corpus-frames.log;" \
		"frame N is line N of $FUZZ_OUT/corpus-frames.idx):"
	grep -v '^{' "$FUZZ_OUT/corpus-frames.log" | head -12 | sed 's/^/    /'
	return 1
}

# run_all SECONDS CORPUS_ROOT TARGET...: NJOBS targets at a time.
run_all() {
	local secs=$1 root=$2 fail=0 t i
	shift 2
	local -a ts=("$@") pids=() names=()
	for ((i = 0; i < ${#ts[@]}; i++)); do
		t=${ts[$i]}
		fuzz1 "$t" "$secs" "$root/$t" "$FUZZ_OUT/fuzz-$t.log" &
		pids+=($!)
		names+=("$t")
		if [ ${#pids[@]} -ge "$NJOBS" ] || [ $((i + 1)) -eq ${#ts[@]} ]; then
			for ((j = 0; j < ${#pids[@]}; j++)); do
				wait "${pids[$j]}"
				local rc=$?
				report "${names[$j]}" "$FUZZ_OUT/fuzz-${names[$j]}.log" $rc
				[ $rc = 0 ] || fail=1
			done
			pids=()
			names=()
		fi
	done
	return $fail
}

# regress TARGET: each regression input once.
regress() {
	local t=$1 d=fuzz/regress/$1 n
	[ -d "$d" ] || return 0
	n=$(find "$d" -type f | wc -l)
	[ "$n" -gt 0 ] || return 0
	if "$FUZZ_BIN/fuzz_$t" -runs=1 "$d"/* >"$FUZZ_OUT/regress-$t.log" 2>&1; then
		echo "fuzz $t: $n regression inputs pass"
	else
		echo "fuzz $t: a regression input fails ($FUZZ_OUT/regress-$t.log)"
		return 1
	fi
}

cmd=${1:-}
secs=${2:-}
[ -n "$cmd" ] && [ -n "$secs" ] || die "usage: fuzz.sh run|smoke SECONDS [TARGET...]"
shift 2
[ $# -gt 0 ] || set -- "${TARGETS[@]}"
for t in "$@"; do
	[[ " ${TARGETS[*]} " == *" $t "* ]] || die "no target '$t' (${TARGETS[*]})"
done
mkdir -p "$FUZZ_OUT"
fail=0
case $cmd in
run)
	run_all "$secs" "$FUZZ_OUT/corpus" "$@" || fail=1
	if [[ " $* " == *" parse "* ]]; then
		bpf_check "$FUZZ_OUT/corpus/parse" || fail=1
	fi
	;;
smoke)
	rm -rf "$FUZZ_OUT/smoke"
	run_all "$secs" "$FUZZ_OUT/smoke" "$@" || fail=1
	for t in "$@"; do
		regress "$t" || fail=1
	done
	if [[ " $* " == *" parse "* ]]; then
		bpf_check "$FUZZ_OUT/smoke/parse" fuzz/regress/parse || fail=1
	fi
	;;
*) die "usage: fuzz.sh run|smoke SECONDS [TARGET...]" ;;
esac
exit $fail
