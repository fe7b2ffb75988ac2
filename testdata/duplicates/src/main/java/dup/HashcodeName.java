package dup;

/** A method named hashcode(), not hashCode(). */
public final class HashcodeName {
    private final int id;

    /**
     * A thing with an id.
     *
     * @param id its id
     */
    public HashcodeName(final int id) {
        this.id = id;
    }

    /**
     * A hash of the id.
     *
     * @return the hash
     */
    public int hashcode() { return id; }
}
