package dup;

/** A finalizer that does not call super.finalize(). */
public class SuperFinalize extends Finalizing {
    private int open = 1;

    @Override protected void finalize() throws Throwable { open = 0; }

    /**
     * Whether it is open.
     *
     * @return true when it is
     */
    public boolean isOpen() {
        return open > 0;
    }
}

/** A class whose finalizer does something. */
class Finalizing {
    private static int finalized;

    @Override
    protected void finalize() throws Throwable {
        finalized++;
        super.finalize();
    }

    static int finalized() {
        return finalized;
    }
}
