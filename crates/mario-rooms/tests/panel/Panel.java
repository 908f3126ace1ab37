// levelgen's agent-panel runner: plays level files with agents of the Mario AI Framework
// (amidos2006/Mario-AI-Framework), compiled beside the framework's own sources by
// tests/panel/mod.rs. Usage: java Panel TIMER_SECONDS AGENT[,AGENT...] LEVEL_FILE...
// Prints one tab-separated line per play:
// play AGENT FILE STATUS COMPLETION JUMPS TICKS WALL_MS CAUSE
// (CAUSE: for a lost play, `enemy` when Mario was hurt, else `fall`; `-` otherwise)
import engine.core.MarioAgent;
import engine.core.MarioGame;
import engine.core.MarioResult;
import java.nio.file.Files;
import java.nio.file.Paths;

public class Panel {
    public static void main(String[] args) throws Exception {
        int timer = Integer.parseInt(args[0]);
        String[] agents = args[1].split(",");
        for (int i = 2; i < args.length; i++) {
            String level = new String(Files.readAllBytes(Paths.get(args[i])));
            for (String name : agents) {
                System.out.println(play(name, args[i], level, timer));
                System.out.flush();
            }
        }
    }

    static String play(String name, String file, String level, int timer) {
        long start = System.nanoTime();
        String status;
        String rest;
        String cause = "-";
        try {
            MarioAgent agent = (MarioAgent) Class.forName("agents." + name + ".Agent")
                    .getDeclaredConstructor().newInstance();
            MarioResult r = new MarioGame().runGame(agent, level, timer, 0, false);
            status = r.getGameStatus().toString();
            rest = r.getCompletionPercentage() + "\t" + r.getNumJumps() + "\t"
                    + r.getAgentEvents().size();
            cause = r.getGameStatus().toString().equals("LOSE")
                    ? (r.getMarioNumHurts() > 0 ? "enemy" : "fall")
                    : "-";
        } catch (Throwable e) {
            // An agent that throws loses the play; the error is named on stderr.
            System.err.println("panel: " + name + " on " + file + ": " + e);
            status = "ERROR";
            rest = "0\t0\t0";
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        return "play\t" + name + "\t" + file + "\t" + status + "\t" + rest + "\t" + ms + "\t" + cause;
    }
}
