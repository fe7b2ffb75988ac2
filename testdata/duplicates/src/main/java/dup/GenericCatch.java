package dup;

/** Catches of Exception and Throwable. */
public final class GenericCatch {
    private GenericCatch() {
    }

    /**
     * Runs a task, telling whether it worked.
     *
     * @param task the task
     * @return true when it ran without an exception
     */
    public static boolean run(final Runnable task) {
        boolean ok = true;
        try {
            task.run();
        } catch (Exception e) {
            ok = false;
        }
        return ok;
    }

    /**
     * Runs a task, telling whether it worked, whatever it threw.
     *
     * @param task the task
     * @return true when it ran without throwing
     */
    public static boolean runAll(final Runnable task) {
        boolean ok = true;
        try {
            task.run();
        } catch (Throwable e) {
            ok = false;
        }
        return ok;
    }
}
