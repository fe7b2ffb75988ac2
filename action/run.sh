#!/usr/bin/env bash
# The GitHub Action's steps (action.yml), in one script so that the
# workflow needs one step where it took five:
#
#   run.sh install  download the release binary of the action's own tag for
#                   the runner's OS and architecture, checked against the
#                   release's checksums.txt; installed=false when the ref has
#                   no release (a branch, an unreleased commit)
#   run.sh key      the cache key of a binary built from source (a hash of
#                   the action's Go sources and its ref) and its directory
#   run.sh build    build recap from the action's own checkout into that directory
#   run.sh run      the job summary, the annotations, the review, the check
#                   run and the quality gate (one recap review), then the
#                   SARIF file
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

# fetch downloads a URL to a file; it fails on any HTTP error.
fetch() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL --retry 3 --connect-timeout 20 -o "$2" "$1"
	else
		wget -q -O "$2" "$1"
	fi
}

# release_tag prints the release tag of the action's ref: the ref itself
# when it is a version tag (v1.2.3); for a major or minor tag (v1, v1.2)
# or a commit SHA, the version tag on the same commit, found in the
# action repository's tags (git ls-remote); nothing for any other ref.
release_tag() {
	local ref=$1 repo want
	if [[ $ref =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
		echo "$ref"
		return
	fi
	[[ $ref =~ ^v[0-9]+(\.[0-9]+)?$ || $ref =~ ^[0-9a-f]{40}$ ]] || return 0
	repo="${RECAP_REPOSITORY_URL:-${GITHUB_SERVER_URL:-https://github.com}/${RECAP_ACTION_REPOSITORY:-recap-dev/recap}}"
	local tags
	tags=$(git ls-remote --tags "$repo" 2>/dev/null) || return 0
	if [[ $ref =~ ^[0-9a-f]{40}$ ]]; then
		want=$ref
	else
		# A tag's commit: the peeled line (^{}) of an annotated tag, else its own.
		want=$(awk -v t="refs/tags/$ref" '$2 == t "^{}" {p=$1} $2 == t {o=$1} END {print (p != "" ? p : o)}' <<<"$tags")
	fi
	[ -n "$want" ] || return 0
	awk -v w="$want" '$1 == w {sub("refs/tags/", "", $2); sub(/\^\{\}$/, "", $2); print $2}' <<<"$tags" |
		grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -t. -k1,1V -k2,2n -k3,3n | tail -n 1
}

# install: the release binary of the action's tag, verified.
install() {
	local ref="${RECAP_VERSION:-}" tag os arch ext archive base tmp want got
	tag=$(release_tag "$ref")
	if [ -z "$tag" ]; then
		echo "recap: the action's ref ${ref:-(none)} is not a release: building recap from the action's source"
		echo "installed=false" >>"$GITHUB_OUTPUT"
		return 0
	fi
	case "${RUNNER_OS:-}" in
	Linux) os=linux ;;
	macOS) os=darwin ;;
	Windows) os=windows ;;
	*) os="" ;;
	esac
	case "${RUNNER_ARCH:-}" in
	X64) arch=amd64 ;;
	ARM64) arch=arm64 ;;
	*) arch="" ;;
	esac
	if [ -z "$os" ] || [ -z "$arch" ]; then
		echo "recap: no release binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}: building recap from the action's source"
		echo "installed=false" >>"$GITHUB_OUTPUT"
		return 0
	fi
	ext=tar.gz
	[ "$os" != windows ] || ext=zip
	archive="recap_${tag#v}_${os}_${arch}.${ext}"
	base="${RECAP_DOWNLOAD_URL:-${GITHUB_SERVER_URL:-https://github.com}/${RECAP_ACTION_REPOSITORY:-recap-dev/recap}/releases/download}/$tag"
	tmp=$(mktemp -d) || return 2
	# The download (possibly tampered with) is removed whatever happens
	# next: a failed fetch, a checksum that does not match, a failed
	# extraction, a signal.
	install_tmp=$tmp
	trap 'rm -rf "$install_tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	if ! fetch "$base/checksums.txt" "$tmp/checksums.txt" || ! fetch "$base/$archive" "$tmp/$archive"; then
		echo "recap: the release $tag has no $archive or checksums.txt at $base: building recap from the action's source" >&2
		echo "installed=false" >>"$GITHUB_OUTPUT"
		return 0
	fi
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f {print $1}' "$tmp/checksums.txt")
	got=$(hash256 <"$tmp/$archive")
	if [ -z "$want" ] || [ "$got" != "$want" ]; then
		echo "recap: $archive does not match the release's checksums.txt (SHA-256 ${got}, listed ${want:-nothing}): not installed" >&2
		return 2
	fi
	mkdir -p "$RECAP_DIR" || return 2
	if [ "$ext" = zip ]; then
		if command -v unzip >/dev/null 2>&1; then
			unzip -q -o "$tmp/$archive" -d "$tmp/x" || return 2
		else
			powershell -NoProfile -Command "Expand-Archive -Force -Path '$tmp/$archive' -DestinationPath '$tmp/x'" || return 2
		fi
		cp "$tmp/x/recap.exe" "$RECAP_DIR/" || return 2
	else
		tar -xzf "$tmp/$archive" -C "$RECAP_DIR" recap || return 2
	fi
	rm -rf "$tmp"
	local exe="$RECAP_DIR/recap"
	[ "$os" != windows ] || exe="$RECAP_DIR/recap.exe"
	echo "recap: installed $tag ($os/$arch), checked against checksums.txt: $("$exe" version 2>&1 | head -n 1)"
	echo "installed=true" >>"$GITHUB_OUTPUT"
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
	local -a reports=() words=() baseline=() gate=() common=()
	read -r -d '' -a words <<<"${INPUT_REPORTS:-}"
	# Globs (build/reports/*.sarif, **/target/pmd.xml) are expanded here, as
	# a shell would, in order; one that matches nothing stays as written, so
	# that recap names it in its error.
	local word match
	local -a matches
	shopt -s globstar
	for word in ${words[@]+"${words[@]}"}; do
		matches=()
		if [[ $word == *[*?[]* ]]; then
			while IFS= read -r match; do
				matches+=("$match")
			done < <(compgen -G "$word" | LC_ALL=C sort)
		fi
		if [ ${#matches[@]} -gt 0 ]; then
			reports+=("${matches[@]}")
		else
			reports+=("$word")
		fi
	done
	words=()
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
	# fail-on: high when the input is not set at all, as action.yml's
	# default; set and empty (a workflow's fail-on: ''), no gate, as
	# action.yml says.
	local fail_on="${INPUT_FAIL_ON-high}"
	[ -z "$fail_on" ] || gate+=(--fail-on "$fail_on")
	[ -z "${INPUT_MAX_NEW:-}" ] || gate+=(--max-new "$INPUT_MAX_NEW")
	[ -z "${INPUT_CONFIG:-}" ] || common+=(--config "$INPUT_CONFIG")
	truthy "${INPUT_GROUP:-true}" || common+=(--no-group)

	# One recap review writes the job summary, the annotations, the
	# review and the check run, all on the pull request's head lines (it
	# reads the head and base from the event file, and carries the lines
	# of the merge commit that actions/checkout checks out onto the head),
	# and decides the gate: each finding is annotated once (the check run,
	# when made, holds the annotations). Without a base (a push), every
	# finding counts and there is no review.
	local -a review=(review --filter-mode nofilter) reporters=()
	[ -z "$base" ] || review=(review --filter-mode "$mode" --base "$base")
	if truthy "${INPUT_SUMMARY:-true}" && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		reporters+=(--job-summary)
	fi
	truthy "${INPUT_ANNOTATIONS:-true}" && reporters+=(--annotations)
	if truthy "${INPUT_REVIEW:-false}"; then
		if [ -n "$base" ]; then
			reporters+=(--post)
		else
			echo "recap: the review needs a pull request (or the base input): skipped" >&2
		fi
	fi
	truthy "${INPUT_CHECKS:-false}" && reporters+=(--checks)
	if [ ${#reporters[@]} -gt 0 ] || [ ${#gate[@]} -gt 0 ]; then
		if [ ${#reporters[@]} -gt 0 ]; then
			"$bin" "${review[@]}" "${reporters[@]}" ${common[@]+"${common[@]}"} ${gate[@]+"${gate[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}"
		else # the gate alone: the review request is not wanted
			"$bin" "${review[@]}" ${common[@]+"${common[@]}"} ${gate[@]+"${gate[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}" >/dev/null
		fi
		local code=$?
		if [ "$code" = 1 ]; then note 1 "quality gate"; else note "$code" review; fi
	fi
	if [ -n "${INPUT_SARIF:-}" ]; then
		# for code scanning, which refuses an upload with a result without a file
		"$bin" summary --format sarif --unlocated drop ${common[@]+"${common[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}" >"$INPUT_SARIF"
		note $? sarif
		[ -z "${GITHUB_OUTPUT:-}" ] || echo "sarif=$INPUT_SARIF" >>"$GITHUB_OUTPUT"
	fi
	if [ -n "${INPUT_HTML:-}" ]; then
		# one page to open, uploaded as an artifact by the next step
		"$bin" summary --format html --output "$INPUT_HTML" ${common[@]+"${common[@]}"} ${baseline[@]+"${baseline[@]}"} "${reports[@]}"
		local html_code=$? html=$INPUT_HTML
		note "$html_code" html
		case $html in /*) ;; *) html=$PWD/$html ;; esac
		[ "$html_code" = 2 ] || [ -z "${GITHUB_OUTPUT:-}" ] || echo "html=$html" >>"$GITHUB_OUTPUT"
	fi
	exit "$worst"
}

# html_link links the HTML report's artifact from the job summary.
html_link() {
	[ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -n "${RECAP_HTML_URL:-}" ] || return 0
	printf '\n[The HTML report](%s): download it and open the page in a browser: the charts, and every finding with its code.\n' "$RECAP_HTML_URL" >>"$GITHUB_STEP_SUMMARY"
}

case "${1:-}" in
install) install ;;
key) key ;;
build) build ;;
run) run ;;
html-link) html_link ;;
*)
	echo "usage: run.sh install|key|build|run|html-link" >&2
	exit 2
	;;
esac
