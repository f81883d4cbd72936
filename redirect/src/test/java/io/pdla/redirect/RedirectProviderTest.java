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
        assertTrue(e.getMessage().contains(RedirectConfig.HINT_READAHEAD), e.getMessage());
    }
}
