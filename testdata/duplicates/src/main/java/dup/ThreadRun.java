package dup;

/** A thread's run() called instead of start(). */
public final class ThreadRun {
    private ThreadRun() {
    }

    /**
     * Runs a task in a new thread.
     *
     * @param task the task
     */
    public static void inThread(final Runnable task) {
        final Thread thread = new Thread(task);
        thread.run();
    }
}
