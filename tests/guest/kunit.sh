#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load the engine's KUnit suite and print its KTAP results, for the host's
# tools/testing/kunit/kunit.py parse.
suite=deadline-rb-engine
modprobe deadline-rb-kunit || { echo "modprobe deadline-rb-kunit failed" >&2; exit 1; }
cat /sys/kernel/debug/kunit/$suite/results
rmmod deadline-rb-kunit
