// ColdServer is a tiny HTTP server on 127.0.0.1 whose per-request work
// (building, splitting and hashing a JSON-like string, sorting) gets much
// faster once the JIT compiles it: started cold, its latency shows a JVM's
// warm-up. Used only to make test data; see make-data.sh beside it.
//
//   java ColdServer.java PORT
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Executors;

public class ColdServer {
    static long work(int seed) {
        StringBuilder sb = new StringBuilder();
        long x = seed;
        for (int i = 0; i < 400; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            sb.append("{\"id\":").append(i).append(",\"v\":").append(x >>> 33).append("},");
        }
        String[] parts = sb.toString().split(",");
        Arrays.sort(parts);
        long h = 0;
        for (String p : parts) {
            h = 31 * h + p.hashCode();
        }
        return h;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 4096);
        s.setExecutor(Executors.newFixedThreadPool(8));
        s.createContext("/work", ex -> {
            byte[] out = ("{\"h\":" + work((int) System.nanoTime()) + "}\n").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, out.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        });
        s.start();
        System.out.println("listening on 127.0.0.1:" + port);
    }
}
