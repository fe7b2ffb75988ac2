#!/usr/bin/env bash
# The GitHub Action's steps (action.yml), in one script so that the
# workflow needs one step where it took five:
#
#   run.sh key    the cache key of recap's binary (a hash of the action's Go
#                 sources and its ref) and the directory it goes in
#   run.sh build  build recap from the action's own checkout into that directory
#   run.sh run    the job summary, the annotations, the SARIF file, the review
#                 and the check run, then the quality gate
#
# Each output is one recap command; a failure of one does not stop the
# others. The exit code is the worst: 2 a report could not be read (or a
# usage error), 3 posting failed, 1 the gate failed, else 0. Inputs come
# from the environment (INPUT_*), never from text pasted into the script.
set -uo pipefail

module=github.com/recap-dev/recap

hash256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum | cut -c1-64
	else
		shasum -a 256 | cut -c1-64
	fi
}

# key: recap-OS-ARCH-<hash of go.mod, go.sum, the Go sources and the ref>.
key() {
	local sum
	sum=$(
		cd "$GITHUB_ACTION_PATH" || exit 2
		{
			printf '%s\n' "${RECAP_VERSION:-}"
			cat go.mod go.sum
			find . -name '*.go' ! -name '*_test.go' ! -path './node_modules/*' | LC_ALL=C sort | while IFS= read -r f; do
				printf '%s\n' "$f"
				cat "$f"
			done
		} | hash256
	) || return 2
	echo "key=recap-${RUNNER_OS:-os}-${RUNNER_ARCH:-arch}-${sum}" >>"$GITHUB_OUTPUT"
	echo "dir=${RUNNER_TEMP:-/tmp}/recap-bin" >>"$GITHUB_OUTPUT"
}

# build: recap from the action's checkout, with the action's ref as its
# version (recap version, and the SARIF's run.conversion, say it).
build() {
	local version="${RECAP_VERSION:-}"
	[ -n "$version" ] || version=dev
	mkdir -p "$RECAP_DIR" || return 2
	(cd "$GITHUB_ACTION_PATH" && go build -trimpath -ldflags "-s -w -X $module/cmd/recap/internal/cli.Version=$version" -o "$RECAP_DIR/" ./cmd/recap)
}

worst=0
# note records a step's exit code: 2 wins over 3, 3 over 1.
note() {
	local code=$1 step=$2
	case $code in
	0) return ;;
	1) [ "$worst" = 0 ] && worst=1 ;;
	3) [ "$worst" = 0 ] || [ "$worst" = 1 ] && worst=3 ;;
	*) worst=2 ;;
	esac
	echo "recap: $step: exit $code" >&2
}

truthy() {
	case "$1" in
	true | True | TRUE | yes | 1) return 0 ;;
	esac
	return 1
}

run() {
	local bin="${RECAP_BIN:-}"
	if [ -z "$bin" ]; then
		bin="$RECAP_DIR/recap"
		[ -x "$bin" ] || bin="$RECAP_DIR/recap.exe"
	fi
	local -a reports=() words=() baseline=() changed=() gate=()
	read -r -d '' -a reports <<<"${INPUT_REPORTS:-}"
	if [ ${#reports[@]} -eq 0 ]; then
		echo "recap: the reports input is empty: give the report files or directories" >&2
		exit 2
	fi
	read -r -d '' -a words <<<"${INPUT_BASELINE:-}"
	for b in ${words[@]+"${words[@]}"}; do
		baseline+=(--baseline "$b")
	done
	local mode="${INPUT_FILTER_MODE:-added}"
	local base="${INPUT_BASE:-}"
	if [ -n "$base" ]; then
		changed=(--changed-only --filter-mode "$mode" --base "$base")
	fi
	[ -z "${INPUT_FAIL_ON:-}" ] || gate+=(--fail-on "$INPUT_FAIL_ON")
	[ -z "${INPUT_MAX_NEW:-}" ] || gate+=(--max-new "$INPUT_MAX_NEW")

	if truthy "${INPUT_SUMMARY:-true}" && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		"$bin" findings --format markdown --max-chars 1048576 ${baseline[@]+"${baseline[@]}"} "${reports[@]}" >>"$GITHUB_STEP_SUMMARY"
		note $? "job summary"
	fi
	if truthy "${INPUT_ANNOTATIONS:-true}"; then
		"$bin" findings --format github ${changed[@]+"${changed[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}"
		note $? annotations
	fi
	if [ -n "${INPUT_SARIF:-}" ]; then
		# for code scanning, which refuses an upload with a result without a file
		"$bin" summary --format sarif --unlocated drop ${baseline[@]+"${baseline[@]}"} "${reports[@]}" >"$INPUT_SARIF"
		note $? sarif
		[ -z "${GITHUB_OUTPUT:-}" ] || echo "sarif=$INPUT_SARIF" >>"$GITHUB_OUTPUT"
	fi
	local -a post=()
	truthy "${INPUT_REVIEW:-false}" && post+=(--post)
	truthy "${INPUT_CHECKS:-false}" && post+=(--checks)
	if [ ${#post[@]} -gt 0 ]; then
		if [ -z "$base" ]; then
			echo "recap: the review and the check run need a pull request (or the base input): skipped" >&2
		else
			"$bin" review "${post[@]}" --base "$base" --filter-mode "$mode" ${gate[@]+"${gate[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}"
			local code=$?
			# The gate is decided once, below.
			[ "$code" = 1 ] || note "$code" review
		fi
	fi
	if [ ${#gate[@]} -gt 0 ]; then
		"$bin" summary ${changed[@]+"${changed[@]}"} ${gate[@]+"${gate[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}" >/dev/null
		note $? "quality gate"
	fi
	exit "$worst"
}

case "${1:-}" in
key) key ;;
build) build ;;
run) run ;;
*)
	echo "usage: run.sh key|build|run" >&2
	exit 2
	;;
esac
