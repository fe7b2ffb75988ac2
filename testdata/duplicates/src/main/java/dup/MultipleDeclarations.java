package dup;

/** Two variables declared in one statement. */
public final class MultipleDeclarations {
    private int width, height;

    /**
     * A size.
     *
     * @param size its width and height
     */
    public MultipleDeclarations(final int size) {
        width = size;
        height = size;
    }

    /**
     * The area.
     *
     * @return width times height
     */
    public int area() {
        return width * height;
    }
}
