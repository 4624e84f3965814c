package io.bullpen.bench.peer.bullpen;

import io.bullpen.bench.peer.ClientSettings;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** The Redisson client Bullpen runs on in the benchmark: Redisson's defaults, as a user starts (but for what {@link ClientSettings} sets). */
final class BullpenClients {
    private BullpenClients() {
    }

    static RedissonClient connect(String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        return Redisson.create(ClientSettings.apply(config));
    }
}
