package dup;

/** An object made only to call getClass(). */
public final class NewForGetClass {
    private NewForGetClass() {
    }

    /**
     * The class of strings.
     *
     * @return String.class
     */
    public static Class<?> type() {
        return new StringBuilder().getClass();
    }
}
