package dup;

/** A class with only private constructors that is not final. */
public class FinalClass {
    private final int size;

    private FinalClass(final int size) {
        this.size = size;
    }

    /**
     * A small one.
     *
     * @return it
     */
    public static FinalClass small() {
        return new FinalClass(1);
    }

    /**
     * Its size.
     *
     * @return the size
     */
    public int size() {
        return size;
    }
}
