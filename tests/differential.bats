#!/usr/bin/env bats
# Differential tests: every deterministic harness program prints the same
# stdout and exits with the same status natively and under umk: 0, unless
# the test says otherwise. The host kernel is the reference: where they
# differ, umk is wrong.

load helper

@test "hello is the same under umk as natively" {
	same_as_native $H/hello 'an argument' ''
}

@test "spawn is the same under umk as natively" {
	same_as_native $H/spawn
}

@test "cpuhog is the same under umk as natively" {
	same_as_native $H/cpuhog
}

@test "efault is the same under umk as natively" {
	same_as_native $H/efault
}

@test "waitstatus is the same under umk as natively" {
	same_as_native $H/waitstatus
}

@test "pipes is the same under umk as natively" {
	same_as_native $H/pipes
}

@test "memory is the same under umk as natively" {
	same_as_native $H/memory
}

@test "ids is the same under umk as natively" {
	same_as_native $H/ids
}

@test "auxv is the same under umk as natively" {
	same_as_native $H/auxv
}

@test "nullderef is the same under umk as natively" {
	same_as_native -s 139 $H/nullderef
}
