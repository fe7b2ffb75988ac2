package dup;

/** A singleton made lazily without synchronization. */
public final class LazySingleton {
    private static LazySingleton instance;

    private LazySingleton() {
    }

    /**
     * The one instance.
     *
     * @return it
     */
    public static LazySingleton get() {
        if (instance == null) {
            instance = new LazySingleton();
        }
        return instance;
    }
}
