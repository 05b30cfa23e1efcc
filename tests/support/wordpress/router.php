<?php
// Router for PHP's built-in server (`php -S 127.0.0.1:PORT -t wp router.php`),
// started by tests/support/wordpress.ts: existing files are served as they
// are (PHP files run), everything else goes to WordPress's index.php, so
// pretty permalinks and /wp-json/ work as behind Apache's rewrite rules.
// Every request is logged (one line: method and URI) to ../requests.log;
// while ../hold.json names a pattern the URI matches, the request waits
// (the test sees it in ../held) until the file is removed: a test stops a
// client mid-run at a request of its choice.
$base = dirname($_SERVER['DOCUMENT_ROOT']);
$uri = $_SERVER['REQUEST_URI'];
file_put_contents("$base/requests.log", $_SERVER['REQUEST_METHOD'] . " $uri\n", FILE_APPEND | LOCK_EX);

$hold = @file_get_contents("$base/hold.json");
if ($hold !== false) {
    $pattern = json_decode($hold, true)['pattern'] ?? null;
    if (is_string($pattern) && preg_match($pattern, $uri)) {
        file_put_contents("$base/held", "$uri\n", FILE_APPEND | LOCK_EX);
        $until = microtime(true) + 120;
        while (is_file("$base/hold.json") && microtime(true) < $until) usleep(20000);
    }
}

$root = $_SERVER['DOCUMENT_ROOT'];
$path = '/' . ltrim(rawurldecode(parse_url($uri, PHP_URL_PATH) ?? '/'), '/');
if ($path !== '/' && file_exists($root . $path)) {
    if (is_dir($root . $path)) {
        if (substr($path, -1) !== '/') {
            header("Location: $path/");
            exit;
        }
        if (!is_file($root . $path . 'index.php')) return false;
        $path .= 'index.php';
    }
    if (substr($path, -4) !== '.php') return false;
    $_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = $path;
    $_SERVER['SCRIPT_FILENAME'] = $root . $path;
    chdir(dirname($root . $path));
    require $root . $path;
    return true;
}
$_SERVER['SCRIPT_NAME'] = $_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = "$root/index.php";
chdir($root);
require "$root/index.php";
