// Hands goengine's kata-analyze or lz-analyze lines to the parser of Lizzie 0.7.4 (featurecat/lizzie,
// Debian's liblizzie-java: /usr/share/java/lizzie.jar) and prints what Lizzie made of each, one JSON
// object a line, for tests/test_lizzie.py.
//
// Lizzie reads an engine's output in Leelaz.parseLine (private, and it draws on the window): a line
// that starts with "info" goes, less its "info ", to Leelaz.parseInfoKatago for an engine whose name
// starts with "KataGo" (kata-analyze), else to Leelaz.parseInfo (Leela Zero's lz-analyze); each
// splits it at " info", reads each part with MoveData.fromInfoKatago or MoveData.fromInfo, and stores
// the moves in the board's data (BoardData.tryToSetBestMoves: the position's win rate and playouts).
// This program calls those public methods of Lizzie's own jar, as parseLine does, on objects made
// without their constructors (Leelaz's starts an engine, Board's opens the window): a Leelaz marked
// as KataGo or not, and a Board holding an empty BoardData of the given size. Lizzie's settings are
// its defaults (new Config() writes them under user.home: run it with -Duser.home=<a scratch folder>).
//
// Usage: java -Duser.home=DIR -cp /usr/share/java/lizzie.jar:CLASSES LizzieParse SIZE kata|lz < lines
// Output, for each input line starting with "info":
//   {"moves": [{"move", "visits", "winrate", "scoreMean", "policy", "pv"}...], "winrate", "playouts"}
// with Lizzie's MoveData fields (winrate and policy in percent, as Lizzie keeps them) and the
// position's win rate and playouts as Lizzie's BoardData keeps them.

import featurecat.lizzie.Config;
import featurecat.lizzie.Lizzie;
import featurecat.lizzie.analysis.Leelaz;
import featurecat.lizzie.analysis.MoveData;
import featurecat.lizzie.rules.Board;
import featurecat.lizzie.rules.BoardData;
import featurecat.lizzie.rules.BoardHistoryList;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.json.JSONArray;
import org.json.JSONObject;

public class LizzieParse {
  /** An instance of c whose constructor has not run (its fields are zero or null). */
  static Object withoutConstructor(Class<?> c) throws Exception {
    Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
    theUnsafe.setAccessible(true);
    return ((sun.misc.Unsafe) theUnsafe.get(null)).allocateInstance(c);
  }

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    boolean kata = args[1].equals("kata");
    // Lizzie says what it does on System.out ("Creating config file ..."): stdout is for the JSON
    PrintStream json = System.out;
    System.setOut(System.err);
    Lizzie.config = new Config();
    Board.boardWidth = size;
    Board.boardHeight = size;
    Lizzie.board = (Board) withoutConstructor(Board.class);
    Field history = Board.class.getDeclaredField("history");
    history.setAccessible(true);
    history.set(Lizzie.board, new BoardHistoryList(BoardData.empty(size, size)));
    Leelaz leelaz = (Leelaz) withoutConstructor(Leelaz.class);
    leelaz.isKataGo = kata;
    Lizzie.leelaz = leelaz; // BoardData.tryToSetBestMoves asks it whether the engine is KataGo

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      if (!line.startsWith("info")) continue;
      String rest = line.substring(5);
      List<MoveData> moves = kata ? leelaz.parseInfoKatago(rest) : leelaz.parseInfo(rest);
      JSONArray read = new JSONArray();
      for (MoveData m : moves) {
        JSONObject move = new JSONObject();
        move.put("move", m.coordinate);
        move.put("visits", m.playouts);
        move.put("winrate", m.winrate);
        move.put("scoreMean", m.scoreMean);
        move.put("policy", m.policy);
        move.put("pv", m.variation == null ? JSONObject.NULL : new JSONArray(m.variation));
        read.put(move);
      }
      BoardData data = Lizzie.board.getData();
      JSONObject out = new JSONObject();
      out.put("moves", read);
      out.put("winrate", data.winrate);
      out.put("playouts", data.getPlayouts());
      json.println(out);
    }
  }
}
