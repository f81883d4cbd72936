package io.pdla.redirect;

import io.pdla.intercept.Interceptors;
import io.pdla.intercept.IoInterceptorProvider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedirectProviderTest {
    @Test
    void redirectIsFoundByNameWithOrder200AndReadsItsHints() {
        List<IoInterceptorProvider> p = new Interceptors().configured(Map.of(Interceptors.HINT, "redirect"));
        assertEquals(1, p.size());
        assertEquals("redirect", p.get(0).name());
        assertEquals(200, p.get(0).order());
        assertTrue(p.get(0).create(Map.of()) instanceof RedirectInterceptor);
        RedirectConfig c = RedirectConfig.from(Map.of(RedirectConfig.HINT_CATALOG, "/x/db", RedirectConfig.HINT_READAHEAD, "0"));
        assertEquals(java.nio.file.Path.of("/x/db"), c.catalog());
        assertEquals(0, c.readAheadBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RedirectConfig.from(Map.of(RedirectConfig.HINT_READAHEAD, "lots")));
        assertTrue(e.getMessage().contains(RedirectConfig.HINT_READAHEAD) && e.getMessage().contains("'lots'"), e.getMessage());
        assertEquals(2L << 20, RedirectConfig.from(Map.of(RedirectConfig.HINT_READAHEAD, "2MiB")).readAheadBytes(),
                "the hint takes core's size grammar");
    }

    @Test
    void aConfiguredCatalogPutsRedirectInEveryWritersChainWhateverTheNamesSay() {
        Interceptors registry = new Interceptors();
        Map<String, String> catalog = Map.of(RedirectConfig.HINT_CATALOG, "/x/db", Interceptors.HINT, "none");
        assertEquals(List.of("redirect"), names(registry.configured(catalog, true)));
        assertEquals(List.of(), names(registry.configured(catalog, false)), "a reader names redirect if it wants replicas");
        assertEquals(List.of(), names(registry.configured(Map.of(Interceptors.HINT, "none"), true)), "no catalog, nothing to guard");
        Map<String, String> both = Map.of(RedirectConfig.HINT_CATALOG, "/x/db", Interceptors.HINT, "redirect");
        assertEquals(List.of("redirect"), names(registry.configured(both, true)), "named and required: once");
    }

    @Test
    void onlinePdlaPutsRedirectInReadersChainsToo() {
        Interceptors registry = new Interceptors();
        if (System.getenv("PDLA_ONLINE") != null) return;   // the process's own setting would decide instead of the hint
        Map<String, String> online = Map.of(RedirectConfig.HINT_CATALOG, "/x/db", RedirectProvider.HINT_ONLINE, "true", Interceptors.HINT, "none");
        // pattern-analyzer's online interceptor joins too where it is on the class path
        assertTrue(names(registry.configured(online, false)).contains("redirect"), "a reader of an online job is served replicas built during it");
        Map<String, String> off = Map.of(RedirectConfig.HINT_CATALOG, "/x/db", RedirectProvider.HINT_ONLINE, "false", Interceptors.HINT, "none");
        assertEquals(List.of(), names(registry.configured(off, false)));
        Map<String, String> noCatalog = Map.of(RedirectProvider.HINT_ONLINE, "true", Interceptors.HINT, "none");
        assertTrue(registry.configured(noCatalog, false).stream().noneMatch(p -> p.name().equals("redirect")), "no catalog, no replicas to serve");
    }

    private static List<String> names(List<IoInterceptorProvider> providers) {
        return providers.stream().map(IoInterceptorProvider::name).toList();
    }
}
