#!/usr/bin/env bash
# The GitHub Action's step: runs `ddbsim check` or `ddbsim diff` and writes the job summary
# (GITHUB_STEP_SUMMARY). Exits as ddbsim does: 3 when a check fails or a diff is over its cost
# guardrail, so the job fails after the summary is written.
#
# INPUT_COMMAND (check or diff), INPUT_SCENARIOS (check: files or folders, space-separated),
# INPUT_BASE and INPUT_HEAD (diff), INPUT_ARGS (more arguments, space-separated); DDBSIM (the
# binary, default ddbsim on PATH).
set -uo pipefail

ddbsim="${DDBSIM:-ddbsim}"
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
read -r -a extra <<< "${INPUT_ARGS:-}"

case "${INPUT_COMMAND:-check}" in
  check)
    read -r -a scenarios <<< "${INPUT_SCENARIOS:-scenarios}"
    out="$(mktemp)"
    "$ddbsim" --color never check "${scenarios[@]}" "${extra[@]}" > "$out"
    status=$?
    cat "$out"
    {
      echo "### ddbsim check"
      echo
      echo '```text'
      cat "$out"
      echo '```'
    } >> "$summary"
    rm -f "$out"
    ;;
  diff)
    [ -n "${INPUT_BASE:-}" ] && [ -n "${INPUT_HEAD:-}" ] || {
      echo "ddbsim action: command diff needs the inputs base and head" >&2
      exit 1
    }
    out="$(mktemp)"
    "$ddbsim" diff "$INPUT_BASE" "$INPUT_HEAD" --markdown "${extra[@]}" > "$out"
    status=$?
    cat "$out" | tee -a "$summary"
    rm -f "$out"
    ;;
  *)
    echo "ddbsim action: command must be check or diff, not ${INPUT_COMMAND}" >&2
    exit 1
    ;;
esac
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$status" >> "$GITHUB_OUTPUT"
fi
exit "$status"
