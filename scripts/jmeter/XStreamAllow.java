// XStreamAllow starts JMeter 2.13 (Debian's jmeter package) on a recent
// XStream (1.4.18+), whose default allow-list rejects JMeter's own classes
// ("ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper"): it loads
// JMeter's properties (the -p file, or bin/jmeter.properties, plus the -J
// overrides), lets JMeter's two XStream instances read any type (the test
// plan is our own file), then runs JMeter's normal entry point.
//
// Usage: java -cp /usr/share/jmeter/bin/ApacheJMeter.jar -Djmeter.home=/usr/share/jmeter \
//            XStreamAllow.java -n -t plan.jmx -l out.jtl [-Jname=value ...]
import java.lang.reflect.Field;
import java.lang.reflect.Method;

public class XStreamAllow {
    public static void main(String[] args) throws Exception {
        String home = System.getProperty("jmeter.home", "/usr/share/jmeter");
        String props = home + "/bin/jmeter.properties";
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("-p")) {
                props = args[i + 1];
            }
        }
        Class<?> nd = Class.forName("org.apache.jmeter.NewDriver");
        Field lf = nd.getDeclaredField("loader");
        lf.setAccessible(true);
        ClassLoader loader = (ClassLoader) lf.get(null);
        Thread.currentThread().setContextClassLoader(loader);
        Class<?> utils = Class.forName("org.apache.jmeter.util.JMeterUtils", true, loader);
        utils.getMethod("setJMeterHome", String.class).invoke(null, home);
        utils.getMethod("loadJMeterProperties", String.class).invoke(null, props);
        Method set = utils.getMethod("setProperty", String.class, String.class);
        for (String a : args) {
            if (a.startsWith("-J") && a.indexOf('=') > 2) {
                set.invoke(null, a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            }
        }
        Class<?> ss = Class.forName("org.apache.jmeter.save.SaveService", true, loader);
        Class<?> permission = Class.forName("com.thoughtworks.xstream.security.TypePermission", true, loader);
        Object any = Class.forName("com.thoughtworks.xstream.security.AnyTypePermission", true, loader).getField("ANY").get(null);
        for (String name : new String[] {"JMXSAVER", "JTLSAVER"}) {
            Field f = ss.getDeclaredField(name);
            f.setAccessible(true);
            Object x = f.get(null);
            x.getClass().getMethod("addPermission", permission).invoke(x, any);
        }
        nd.getMethod("main", String[].class).invoke(null, (Object) args);
    }
}
