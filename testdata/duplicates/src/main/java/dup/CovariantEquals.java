package dup;

/** An equals() that takes its own type instead of Object. */
public final class CovariantEquals {
    private final int id;

    /**
     * A thing with an id.
     *
     * @param id its id
     */
    public CovariantEquals(final int id) {
        this.id = id;
    }

    public boolean equals(final CovariantEquals other) { return id == other.id; }

    /**
     * Its id.
     *
     * @return the id
     */
    public int id() {
        return id;
    }
}

/** A class that defines equals(Object) and hashCode(). */
class Identified {
    private final int id;

    Identified(final int id) {
        this.id = id;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Identified && id == ((Identified) other).id;
    }

    @Override
    public int hashCode() {
        return id;
    }
}

/** A subclass whose equals() takes its own type. */
final class Named extends Identified {
    private final String name;

    Named(final int id, final String name) {
        super(id);
        this.name = name;
    }

    public boolean equals(final Named other) { return super.equals(other) && name.equals(other.name); }
}
