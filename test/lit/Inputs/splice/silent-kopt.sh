#!/bin/sh
# Stands in for a kopt that fails with status 1 and says nothing: not the
# user's mistake in a pragma (that comes with clang's diagnostic).
exit 1
