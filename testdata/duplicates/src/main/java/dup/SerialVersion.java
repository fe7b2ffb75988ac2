package dup;

import java.io.Serializable;

/** A serializable class without a serialVersionUID. */
public final class SerialVersion implements Serializable { private final String name = "serial"; }
