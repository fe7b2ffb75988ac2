package dup;

/** The garbage collector called explicitly. */
public final class GarbageCollection {
    private GarbageCollection() {
    }

    /** Frees memory. */
    public static void free() {
        System.gc();
    }
}
