package io.pdla.bdb;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * JE's java.util.logging level. JE reports every environment open and close at INFO ("soft shutdown
 * initiated"); the catalog is opened once per file by the redirect layer of every application, so that would be
 * a line on their stderr per open. A level someone set explicitly is left alone.
 */
public final class JeLogging {
    /** Held strongly: java.util.logging forgets the level of a logger nobody references. */
    private static final Logger JE = Logger.getLogger("com.sleepycat.je");

    static {
        if (JE.getLevel() == null) JE.setLevel(Level.WARNING);
    }

    private JeLogging() {
    }

    /** Makes sure the level is set (loading this class sets it). */
    public static void quiet() {
        // the static initializer did the work
    }

    /** The level JE logs at from now on. */
    public static Level level() {
        return JE.getLevel();
    }
}
