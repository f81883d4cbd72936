package io.pdla.simpfs;

/** Hybrid with unequal strips on HServers and SServers. */
class HybridContractTest extends SimPfsContractTest { HybridContractTest() { super("hybrid,sh=1000,ss=3000"); } }
