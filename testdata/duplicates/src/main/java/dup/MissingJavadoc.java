package dup;

public final class MissingJavadoc {
    public final int size;

    public MissingJavadoc(final int size) {
        this.size = size;
    }

    public int doubled() {
        return size + size;
    }
}
