package Names;

/** A package whose name has an upper-case letter. */
public final class PackageName {
    private PackageName() {
    }
}
