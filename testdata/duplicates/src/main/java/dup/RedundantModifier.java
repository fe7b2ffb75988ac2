package dup;

/** A modifier that the context implies. */
public interface RedundantModifier {
    /**
     * The name.
     *
     * @return the name
     */
    public abstract String name();
}
