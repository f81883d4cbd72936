package io.pdla.delegate.service;

import io.pdla.access.ExtentList;
import io.pdla.storage.Layout;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** {@code touches} (O(1) per extent, what the bypass asks) agrees with walking every byte's owner. */
    @Test
    void touchesAgreesWithTheOwnerOfEveryByte() {
        long seed = System.nanoTime();
        Random r = new Random(seed);
        for (int c = 0; c < 2000; c++) {
            DelegateDomains domains = new DelegateDomains(1 + r.nextInt(16), 1 + r.nextInt(6));
            ExtentList.Builder b = ExtentList.builder();
            for (int i = r.nextInt(4); i >= 0; i--) b.add(r.nextInt(300), r.nextInt(r.nextBoolean() ? 8 : 120));
            ExtentList extents = b.build();
            for (int delegate = 0; delegate < domains.delegatesUsed(); delegate++) {
                boolean owns = false;
                for (int i = 0; i < extents.size() && !owns; i++) {
                    for (long off = extents.offset(i); off < extents.offset(i) + extents.length(i) && !owns; off++) {
                        owns = domains.owner(off) == delegate;
                    }
                }
                assertEquals(owns, domains.touches(extents, delegate), "seed " + seed + ", case " + c + ": page "
                        + domains.pageSize() + ", " + domains.delegatesUsed() + " delegates, delegate " + delegate + ", " + extents);
            }
        }
    }

    @Test
    void aCallWithinOnePageTouchesItsOwnerOnly() {
        DelegateDomains domains = new DelegateDomains(1 << 16, 4);
        ExtentList inPageSix = ExtentList.of(6L << 16, 100);
        assertTrue(domains.touches(inPageSix, 2));
        assertFalse(domains.touches(inPageSix, 1));
        assertFalse(domains.touches(inPageSix, 3));
        assertFalse(domains.touches(ExtentList.EMPTY, 0));
        // four pages from page 3 reach every delegate, whatever the start
        assertTrue(domains.touches(ExtentList.of((3L << 16) + 1, 3L << 16), 2));
        assertTrue(domains.touches(ExtentList.of((3L << 16) + 1, 3L << 16), 3));
    }
}
