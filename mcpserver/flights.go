package mcpserver

import (
	"context"
	"errors"
	"sync"
)

// flights are the results being made: the calls that ask the same query of
// the same reports at once wait for one pass over them.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done    chan struct{}
	res     *result
	err     error
	waiting int // the calls waiting for it
	cancel  context.CancelFunc
}

// do returns the result of key. The first call to ask it starts a flight:
// lead, called at once (with the flights' mutex held, so briefly), returns
// the work, which runs on its own with a context that ends when every call
// waiting for it has left; the calls asking the same key meanwhile wait
// for it. A call whose ctx ends leaves at once and the work goes on for
// the others; a flight stopped because all left is not handed to a call
// that came later: that one starts another.
func (fs *flights) do(ctx context.Context, key string, lead func() func(context.Context) (*result, error)) (*result, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fs.mu.Lock()
		if fs.m == nil {
			fs.m = map[string]*flight{}
		}
		f := fs.m[key]
		if f == nil {
			f = &flight{done: make(chan struct{})}
			fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
			f.cancel = cancel
			fs.m[key] = f
			work := lead()
			go func() {
				defer cancel()
				res, err := work(fctx)
				fs.mu.Lock()
				f.res, f.err = res, err
				if fs.m[key] == f {
					delete(fs.m, key)
				}
				close(f.done)
				fs.mu.Unlock()
			}()
		}
		f.waiting++
		fs.mu.Unlock()
		select {
		case <-f.done:
			if f.err != nil && errors.Is(f.err, context.Canceled) && ctx.Err() == nil {
				continue // stopped by the calls that left before this one came
			}
			return f.res, f.err
		case <-ctx.Done():
			fs.mu.Lock()
			if f.waiting--; f.waiting == 0 {
				f.cancel()
				if fs.m[key] == f {
					delete(fs.m, key)
				}
			}
			fs.mu.Unlock()
			return nil, ctx.Err()
		}
	}
}
