package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/recap-dev/recap/reports"
)

// replayed replays b (n records) with replayRecords, keeping a copy of
// each finding emitted until emit returns stopAt's error (-1: never) or
// panics at panicAt (-1: never).
func replayed(b []byte, n, stopAt, panicAt int) (got []reports.Finding, err error) {
	err = replayRecords(context.Background(), bufio.NewReaderSize(bytes.NewReader(b), 1<<16), int64(len(b)), n, func(f *reports.Finding) error {
		got = append(got, *f)
		switch len(got) - 1 {
		case stopAt:
			return errStopAt
		case panicAt:
			panic("emit panicked")
		}
		return nil
	})
	return got, err
}

var errStopAt = errors.New("emit's error")

// recordStarts returns the offset of each record of b.
func recordStarts(t *testing.T, b []byte) []int {
	var starts []int
	for off := 0; off < len(b); {
		starts = append(starts, off)
		l, k := binary.Uvarint(b[off:])
		if k <= 0 {
			t.Fatalf("record at %d", off)
		}
		off += k + int(l)
	}
	return starts
}

// TestReplayAhead: a spool of replayAhead records or more is decoded on a
// goroutine of its own and emitted as the caller's goroutine alone would:
// the same findings in the same order; a record that does not decode
// emits those before it, then the error; emit's error or panic ends the
// replay there. No goroutine is left behind.
func TestReplayAhead(t *testing.T) {
	one, n1 := spoolBytes(t, 2000)
	var b []byte
	n := 0
	for n < 3*replayAhead+17 { // several batches and a partial one
		b = append(b, one...)
		n += n1
	}
	goroutines := runtime.NumGoroutine()

	var serial []reports.Finding
	if err := decodeRecords(context.Background(), bufio.NewReader(bytes.NewReader(b)), int64(len(b)), n, func(f *reports.Finding) error {
		serial = append(serial, *f)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := replayed(b, n, -1, -1)
	if err != nil || len(got) != n || !reflect.DeepEqual(got, serial) {
		t.Fatalf("%d of %d findings (%v); the same as decoded alone: %v", len(got), n, err, reflect.DeepEqual(got, serial))
	}

	starts := recordStarts(t, b)
	for _, k := range []int{0, replayBatch - 1, replayBatch, 2*replayAhead + 5, n - 1} {
		bad := bytes.Clone(b)
		l, w := binary.Uvarint(b[starts[k]:])
		for i := starts[k] + w; i < starts[k]+w+int(l); i++ {
			bad[i] = 0xff // no varint ends: the record does not decode
		}
		got, err := replayed(bad, n, -1, -1)
		if err == nil || len(got) != k || k > 0 && !reflect.DeepEqual(got, serial[:k]) {
			t.Errorf("record %d corrupt: %d findings emitted (%v), want %d then an error", k, len(got), err, k)
		}
		got, err = replayed(b, n, k, -1)
		if !errors.Is(err, errStopAt) || len(got) != k+1 {
			t.Errorf("emit failed at %d: %d emitted, %v", k, len(got), err)
		}
		func() {
			defer func() {
				if p := recover(); p != "emit panicked" {
					t.Errorf("emit panicked at %d: recovered %v", k, p)
				}
			}()
			replayed(b, n, -1, k)
			t.Errorf("emit panicked at %d: no panic", k)
		}()
	}
	ctx, cancel := context.WithCancel(context.Background())
	seen := 0
	err = replayRecords(ctx, bufio.NewReader(bytes.NewReader(b)), int64(len(b)), n, func(*reports.Finding) error {
		if seen++; seen == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || seen > 10+1024+2*replayBatch {
		t.Errorf("cancelled: %v after %d findings", err, seen)
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines {
		t.Errorf("%d goroutines left behind", g-goroutines)
	}
}
