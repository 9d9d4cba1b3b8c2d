#!/bin/sh
# Stands in for kopt: records that it ran, then fails as rewrite-tu does when
# clang cannot parse the TU.
echo "$@" >> "$FAKE_KOPT_LOG"
echo "kopt rewrite-tu: error: fake-kopt cannot parse this" >&2
exit 2
