package hostile

import (
	"os/exec"
	"syscall"
	"testing"
)

// TestChildPeakNotInherited: a child that ends before the watcher samples
// it is not given this process's peak, which Linux reports as the
// child's when it was started as Go starts children (vfork): `true`, run
// by a process that touched 64 MiB, is told unknown (0), not 64 MiB.
func TestChildPeakNotInherited(t *testing.T) {
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skipf("true: %v", err)
	}
	ru := c.ProcessState.SysUsage().(*syscall.Rusage)
	var self syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &self); err != nil {
		t.Fatal(err)
	}
	if got := childPeak(0, ru.Maxrss*1024, self.Maxrss*1024); got >= 64<<20 {
		t.Errorf("`true` given a peak of %d MiB (its rusage %d KiB, this process's %d KiB)", got>>20, ru.Maxrss, self.Maxrss)
	}
	for _, c := range []struct{ polled, rusage, self, want int64 }{
		{polled: 5 << 20, rusage: 200 << 20, self: 100 << 20, want: 5 << 20}, // sampled: the sample
		{polled: 0, rusage: 300 << 20, self: 100 << 20, want: 300 << 20},     // above this process's own: the child's
		{polled: 0, rusage: 90 << 20, self: 100 << 20, want: 0},              // maybe this process's: unknown
	} {
		if got := childPeak(c.polled, c.rusage, c.self); got != c.want {
			t.Errorf("childPeak(%d, %d, %d) = %d, want %d", c.polled, c.rusage, c.self, got, c.want)
		}
	}
	_ = b[len(b)-1]
}
