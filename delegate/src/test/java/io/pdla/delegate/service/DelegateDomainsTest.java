package io.pdla.delegate.service;

import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DelegateDomainsTest {
    @Test
    void pageSizeHintIsReadByTheOneSizeGrammar() {
        Layout unstriped = Layout.unstriped(4096);
        assertEquals(1L << 20, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "1m")).pageSize());
        assertEquals(256L << 10, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "256 KiB")).pageSize());
        assertEquals(65536, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "65536")).pageSize());
        // rounded up to the block size
        assertEquals(8192, DelegateDomains.of(unstriped, 2, Map.of(DelegateDomains.HINT_PAGE, "5000")).pageSize());
    }

    @Test
    void aPageSizeThatIsNotASizeNamesTheHintAndTheText() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DelegateDomains.of(Layout.unstriped(4096), 2, Map.of(DelegateDomains.HINT_PAGE, "64q")));
        assertTrue(e.getMessage().contains(DelegateDomains.HINT_PAGE) && e.getMessage().contains("64q"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DelegateDomains.of(Layout.unstriped(4096), 2, Map.of(DelegateDomains.HINT_PAGE, "0")));
    }
}
