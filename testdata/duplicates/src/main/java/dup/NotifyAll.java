package dup;

/** notify() where notifyAll() is safer. */
public final class NotifyAll {
    private boolean ready;

    /** Wakes a waiting thread. */
    public synchronized void ready() {
        ready = true;
        notify();
    }

    /**
     * Whether it is ready.
     *
     * @return true when it is
     */
    public synchronized boolean isReady() {
        return ready;
    }
}
