package dup;

/** A clone() that does not call super.clone(). */
public class SuperClone implements Cloneable {
    private int size;

    @Override public SuperClone clone() { final SuperClone copy = new SuperClone(); copy.size = size; return copy; }

    /**
     * Its size.
     *
     * @return the size
     */
    public int size() {
        return size;
    }
}
