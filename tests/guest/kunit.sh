#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load the engine's KUnit suite and print its KTAP results, for the host's
# tools/testing/kunit/kunit.py parse.  The exit status is the suite's: 0
# only when its results say "ok" and no case says "not ok".
suite=deadline-rb-engine
modprobe deadline-rb-kunit || { echo "modprobe deadline-rb-kunit failed" >&2; exit 1; }
results=$(cat /sys/kernel/debug/kunit/$suite/results)
echo "$results"
rmmod deadline-rb-kunit
echo "$results" | grep -q "^ok [0-9]* $suite" || exit 1
! echo "$results" | grep -q "not ok"
