package io.pdla.storage;

/**
 * The class loader through which pdla finds its plugins (drivers, interceptors) with {@link java.util.ServiceLoader}.
 * The loader of the SPI class sees them when pdla is loaded per rank (each MPJ multicore rank's own loader, or one
 * JVM's class path); when pdla's MPI-free classes are shared by all ranks of a JVM (the launcher's shared classes),
 * that loader is the system class loader, which holds the shared classes only, and the plugins are on the rank's class
 * path: then the thread's context class loader (the rank's, set by MPJ's multicore starter) is the one, as long as it
 * sees the same SPI class.
 */
public final class PluginLoaders {
    private PluginLoaders() {
    }

    public static ClassLoader forSpi(Class<?> spi) {
        ClassLoader own = spi.getClassLoader();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context == null || context == own) return own;
        try {
            if (Class.forName(spi.getName(), false, context) == spi) return context;
        } catch (ClassNotFoundException | LinkageError e) {
            // a context loader that does not see pdla (a pool thread's, an embedder's): pdla's own then
        }
        return own;
    }
}
