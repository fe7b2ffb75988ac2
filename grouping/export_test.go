package grouping

// SetOffHeap says whether the groupers made from now on keep their members
// outside the Go heap, and returns a function that restores the setting.
func SetOffHeap(on bool) (restore func()) {
	was := offHeapStore
	offHeapStore = on
	return func() { offHeapStore = was }
}
