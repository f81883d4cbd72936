package io.pdla.simpfs;

import io.pdla.access.ExtentList;
import io.pdla.access.IoOp;
import io.pdla.access.Positioning;
import io.pdla.intercept.AppIdentity;
import io.pdla.intercept.FileContext;
import io.pdla.intercept.InterceptorChain;
import io.pdla.intercept.IoCall;
import io.pdla.intercept.IoInterceptorProvider;
import io.pdla.simpfs.store.RecordedStreams;
import io.pdla.simpfs.store.SimPfs;
import io.pdla.simpfs.timing.Request;
import io.pdla.simpfs.timing.RequestStream;
import io.pdla.simpfs.timing.SimResult;
import io.pdla.simpfs.timing.TimingEngine;
import io.pdla.storage.OpenOptions;
import io.pdla.storage.StorageFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The interceptor that binds ranks' files to their streams and marks collective calls, driven as the shim would. */
class SimPfsTimingInterceptorTest {
    @TempDir
    Path root;

    @Test
    void collectiveCallsBecomeCollectivePointsInEachRanksStream() throws Exception {
        IoInterceptorProvider provider = ServiceLoader.load(IoInterceptorProvider.class, IoInterceptorProvider.class.getClassLoader())
                .stream().map(ServiceLoader.Provider::get).filter(p -> p.name().equals("simpfs-timing")).findFirst().orElseThrow();
        assertEquals(400, provider.order());
        Map<String, String> hints = Map.of(SimPfsDriver.HINT_SESSION, "shim");
        SimPfsDriver driver = new SimPfsDriver(root);
        URI uri = URI.create("simpfs:///coll");
        int ranks = 2;
        for (int rank = 0; rank < ranks; rank++) {
            StorageFile f = driver.open(uri, OpenOptions.createReadWrite());
            FileContext ctx = new FileContext("simpfs:///coll", uri, 0, rank, ranks, new AppIdentity("test", ranks), hints, driver, f);
            InterceptorChain chain = new InterceptorChain(List.of(provider.create(hints)));
            chain.opened(ctx);
            ExtentList mine = ExtentList.of(rank * 4096L, 4096);
            chain.execute(IoCall.data(ctx, IoOp.WRITE, Positioning.EXPLICIT_OFFSET, true, mine, ByteBuffer.allocate(4096)));
            chain.execute(IoCall.data(ctx, IoOp.READ, Positioning.EXPLICIT_OFFSET, false, mine, ByteBuffer.allocate(4096)));
            chain.closing(ctx);
            f.close();
        }
        driver.closeRecorders();
        SimPfs fs = SimPfs.open(root, null);
        RecordedStreams streams = RecordedStreams.load(fs, "shim");
        assertEquals(2, streams.ranks());
        RequestStream s1 = streams.stream(1);
        Request r = new Request();
        assertTrue(s1.next(r));
        assertEquals(Request.Kind.BARRIER, r.kind(), "the collective write is preceded by a collective point");
        assertTrue(s1.next(r));
        assertEquals(Request.Kind.WRITE, r.kind());
        assertEquals(4096, r.offset(0));
        assertTrue(s1.next(r));
        assertEquals(Request.Kind.READ, r.kind());
        SimResult result = new TimingEngine(fs.config()).run(streams);
        assertEquals(4, result.requests());
    }
}
