#!/usr/bin/env bats
# The index of an mm's regions in isolation (kernel/mm/vma_tree.c): a treap
# augmented with each subtree's largest gap, against a sorted array.

load helper

@test "the region tree finds the region above an address and the highest gap that fits, as a walk of the sorted regions does" {
	run --separate-stderr timeout 60 $B/tests/vma_tree
	assert_success
	assert_output --regexp '^vma_tree: [0-9]+ inserts, [0-9]+ erases, [0-9]+ changed ends \(up to [0-9]+ regions\) match the reference$'
}
