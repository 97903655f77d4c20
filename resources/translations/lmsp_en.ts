<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en_US">
  <context>
    <name />
  </context>
  <context>
    <name>ClientsPage</name>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="39" />
      <source>Paired apps</source>
      <translation>Paired apps</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Name</source>
      <translation>Name</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Scopes</source>
      <translation>Scopes</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Paired</source>
      <translation>Paired</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Last used</source>
      <translation>Last used</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="53" />
      <location filename="../../desktop/ui/clients_page.py" line="54" />
      <location filename="../../desktop/ui/clients_page.py" line="119" />
      <source>Revoke access</source>
      <translation>Revoke access</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="58" />
      <source>No app is paired yet. When an app asks to use your models, LMSP Desktop shows a pairing dialog.</source>
      <translation>No app is paired yet. When an app asks to use your models, LMSP Desktop shows a pairing dialog.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="88" />
      <source>never</source>
      <translation>never</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="120" />
      <source>{name} will no longer be able to use LMSP Desktop. Revoke its access?</source>
      <translation>{name} will no longer be able to use LMSP Desktop. Revoke its access?</translation>
    </message>
  </context>
  <context>
    <name>DownloadDialog</name>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="74" />
      <source>Download a model</source>
      <translation>Download a model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="77" />
      <source>Model URL</source>
      <translation>Model URL</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="79" />
      <source>optional</source>
      <translation>optional</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="80" />
      <source>Expected SHA-256</source>
      <translation>Expected SHA-256</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="82" />
      <source>URL</source>
      <translation>URL</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="83" />
      <source>SHA-256</source>
      <translation>SHA-256</translation>
    </message>
  </context>
  <context>
    <name>ImportChoiceDialog</name>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="38" />
      <source>Import a model</source>
      <translation>Import a model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="44" />
      <source>How should LMSP Desktop keep this file?</source>
      <translation>How should LMSP Desktop keep this file?</translation>
    </message>
    <message>
      <source>Copy it into the model store (safest; uses disk space)</source>
      <translation>Copy it into the model store (safest; uses disk space)</translation>
    </message>
    <message>
      <source>Link it into the model store (no extra space; same disk only)</source>
      <translation>Link it into the model store (no extra space; same disk only)</translation>
    </message>
    <message>
      <source>Keep it where it is (the model breaks if the file moves)</source>
      <translation>Keep it where it is (the model breaks if the file moves)</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="65" />
      <source>Pages</source>
      <translation>Pages</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="70" />
      <source>Tasks</source>
      <translation>Tasks</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="123" />
      <source>Click to copy the service address</source>
      <translation>Click to copy the service address</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="124" />
      <source>Service address (copy)</source>
      <translation>Service address (copy)</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="127" />
      <source>Running and queued tasks</source>
      <translation>Running and queued tasks</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="129" />
      <source>Data folder</source>
      <translation>Data folder</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="145" />
      <source>Address copied to the clipboard.</source>
      <translation>Address copied to the clipboard.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="165" />
      <source>{running} running · {queued} queued</source>
      <translation>{running} running · {queued} queued</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="174" />
      <source>&amp;File</source>
      <translation>&amp;File</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="175" />
      <source>&amp;Settings…</source>
      <translation>&amp;Settings…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="180" />
      <source>&amp;Quit</source>
      <translation>&amp;Quit</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="183" />
      <source>&amp;View</source>
      <translation>&amp;View</translation>
    </message>
  </context>
  <context>
    <name>ModelTableModel</name>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="33" />
      <source>Name</source>
      <translation>Name</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="34" />
      <source>Architecture</source>
      <translation>Architecture</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="35" />
      <source>Quantization</source>
      <translation>Quantization</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="36" />
      <source>Size</source>
      <translation>Size</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="37" />
      <source>Context</source>
      <translation>Context</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="38" />
      <source>SHA-256</source>
      <translation>SHA-256</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="39" />
      <source>Status</source>
      <translation>Status</translation>
    </message>
  </context>
  <context>
    <name>ModelsPage</name>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="88" />
      <source>Models</source>
      <translation>Models</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="103" />
      <source>Import…</source>
      <translation>Import…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="104" />
      <source>Download from URL…</source>
      <translation>Download from URL…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="105" />
      <source>Verify</source>
      <translation>Verify</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="106" />
      <source>Remove</source>
      <translation>Remove</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="116" />
      <source>Tip: drop a .gguf file here to import it.</source>
      <translation>Tip: drop a .gguf file here to import it.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="122" />
      <source>No model yet. Add the small starter model (Gemma 3 270M) to try it?</source>
      <translation>No model yet. Add the small starter model (Gemma 3 270M) to try it?</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="125" />
      <source>Add starter model</source>
      <translation>Add starter model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="177" />
      <source>Import a model</source>
      <translation>Import a model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="177" />
      <source>GGUF models (*.gguf)</source>
      <translation>GGUF models (*.gguf)</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="221" />
      <source>{name}: {status}</source>
      <translation>{name}: {status}</translation>
    </message>
  </context>
  <context>
    <name>PairingDialog</name>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="45" />
      <source>Allow an app to use LMSP Desktop?</source>
      <translation>Allow an app to use LMSP Desktop?</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="50" />
      <source>&lt;b&gt;{name}&lt;/b&gt; wants to use your models.</source>
      <translation>&lt;b&gt;{name}&lt;/b&gt; wants to use your models.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="55" />
      <source>App name</source>
      <translation>App name</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="64" />
      <source>Pairing code</source>
      <translation>Pairing code</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="65" />
      <source>Check that the app shows the same code:</source>
      <translation>Check that the app shows the same code:</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="67" />
      <source>It asks to:</source>
      <translation>It asks to:</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="79" />
      <source>Time left</source>
      <translation>Time left</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="83" />
      <location filename="../../desktop/ui/pairing_dialog.py" line="84" />
      <source>Deny</source>
      <translation>Deny</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="85" />
      <location filename="../../desktop/ui/pairing_dialog.py" line="86" />
      <source>Allow</source>
      <translation>Allow</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/pairing_dialog.py" line="119" />
      <source>%n more request(s) waiting</source>
      <translation>
        <numerusform>%n more request waiting</numerusform>
        <numerusform>%n more requests waiting</numerusform>
      </translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="145" />
      <source>Expires in {seconds} s</source>
      <translation>Expires in {seconds} s</translation>
    </message>
    <message>
      <source>See the list of models</source>
      <translation>See the list of models</translation>
    </message>
    <message>
      <source>Import, download and remove models</source>
      <translation>Import, download and remove models</translation>
    </message>
    <message>
      <source>Generate text with your models</source>
      <translation>Generate text with your models</translation>
    </message>
    <message>
      <source>Read the responses it created</source>
      <translation>Read the responses it created</translation>
    </message>
    <message>
      <source>See its tasks</source>
      <translation>See its tasks</translation>
    </message>
    <message>
      <source>Cancel and delete its tasks</source>
      <translation>Cancel and delete its tasks</translation>
    </message>
  </context>
  <context>
    <name>PairingQueue</name>
    <message>
      <location filename="../../desktop/ui/pairing_queue.py" line="72" />
      <source>Pairing request</source>
      <translation>Pairing request</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_queue.py" line="73" />
      <source>{name} wants to use your models.</source>
      <translation>{name} wants to use your models.</translation>
    </message>
  </context>
  <context>
    <name>PhaseBar</name>
    <message>
      <location filename="../../desktop/ui/phase_bar.py" line="95" />
      <source>Time spent in each phase</source>
      <translation>Time spent in each phase</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/phase_bar.py" line="108" />
      <source>%n restart(s)</source>
      <translation>
        <numerusform>%n restart</numerusform>
        <numerusform>%n restarts</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>RecoveryBanner</name>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="31" />
      <source>Recovery report</source>
      <translation>Recovery report</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="33" />
      <source>Show these tasks</source>
      <translation>Show these tasks</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="38" />
      <source>Dismiss</source>
      <translation>Dismiss</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="39" />
      <source>Dismiss the recovery report</source>
      <translation>Dismiss the recovery report</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="54" />
      <source>After the last session ended unexpectedly: </source>
      <translation>After the last session ended unexpectedly: </translation>
    </message>
  </context>
  <context>
    <name>ServiceBridge</name>
    <message>
      <location filename="../../desktop/ui/bridge.py" line="250" />
      <source>Something went wrong; the details are in the log.</source>
      <translation>Something went wrong; the details are in the log.</translation>
    </message>
  </context>
  <context>
    <name>SettingsDialog</name>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="43" />
      <source>Settings</source>
      <translation>Settings</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="67" />
      <source>This address is not loopback: other computers on the network will be able to reach the service.</source>
      <translation>This address is not loopback: other computers on the network will be able to reach the service.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="80" />
      <location filename="../../desktop/ui/settings_dialog.py" line="81" />
      <source>Open data folder</source>
      <translation>Open data folder</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="85" />
      <source>Data folder</source>
      <translation>Data folder</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="118" />
      <source>comma separated</source>
      <translation>comma separated</translation>
    </message>
    <message>
      <source>Port</source>
      <translation>Port</translation>
    </message>
    <message>
      <source>Bind address</source>
      <translation>Bind address</translation>
    </message>
    <message>
      <source>Keep finished tasks (days)</source>
      <translation>Keep finished tasks (days)</translation>
    </message>
    <message>
      <source>Keep idempotency keys (hours)</source>
      <translation>Keep idempotency keys (hours)</translation>
    </message>
    <message>
      <source>Default restart policy</source>
      <translation>Default restart policy</translation>
    </message>
    <message>
      <source>Max attempts</source>
      <translation>Max attempts</translation>
    </message>
    <message>
      <source>Tasks at once</source>
      <translation>Tasks at once</translation>
    </message>
    <message>
      <source>Snapshot every (tokens)</source>
      <translation>Snapshot every (tokens)</translation>
    </message>
    <message>
      <source>Snapshot interval (ms)</source>
      <translation>Snapshot interval (ms)</translation>
    </message>
    <message>
      <source>Allowed Host names</source>
      <translation>Allowed Host names</translation>
    </message>
    <message>
      <source>Allowed origins</source>
      <translation>Allowed origins</translation>
    </message>
  </context>
  <context>
    <name>TaskDetail</name>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="41" />
      <location filename="../../desktop/ui/task_detail.py" line="91" />
      <source>Select a task to see its timeline.</source>
      <translation>Select a task to see its timeline.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="47" />
      <source>Event timeline</source>
      <translation>Event timeline</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="61" />
      <source>Output so far</source>
      <translation>Output so far</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="62" />
      <source>No output yet.</source>
      <translation>No output yet.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="96" />
      <location filename="../../desktop/ui/task_detail.py" line="142" />
      <source>{id} — {kind}, {status}</source>
      <translation>{id} — {kind}, {status}</translation>
    </message>
  </context>
  <context>
    <name>TaskTableModel</name>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="98" />
      <source>ID</source>
      <translation>ID</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="99" />
      <source>Kind</source>
      <translation>Kind</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="100" />
      <source>Client</source>
      <translation>Client</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="101" />
      <source>Model</source>
      <translation>Model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="102" />
      <source>Status</source>
      <translation>Status</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="103" />
      <source>Progress</source>
      <translation>Progress</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="104" />
      <source>Tokens/s</source>
      <translation>Tokens/s</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="105" />
      <source>Attempt</source>
      <translation>Attempt</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="106" />
      <source>Created</source>
      <translation>Created</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="107" />
      <source>Duration</source>
      <translation>Duration</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="285" />
      <source>this computer</source>
      <translation>this computer</translation>
    </message>
  </context>
  <context>
    <name>TasksPage</name>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="57" />
      <source>Filter by status</source>
      <translation>Filter by status</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="57" />
      <source>All statuses</source>
      <translation>All statuses</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="60" />
      <source>Filter by kind</source>
      <translation>Filter by kind</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="60" />
      <source>All kinds</source>
      <translation>All kinds</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="63" />
      <source>Client id</source>
      <translation>Client id</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="64" />
      <source>Filter by client</source>
      <translation>Filter by client</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="68" />
      <source>Search by id</source>
      <translation>Search by id</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="69" />
      <source>Search tasks by id</source>
      <translation>Search tasks by id</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="74" />
      <source>Show all tasks</source>
      <translation>Show all tasks</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="88" />
      <source>Tasks</source>
      <translation>Tasks</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="107" />
      <source>Cancel</source>
      <translation>Cancel</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="108" />
      <source>Delete</source>
      <translation>Delete</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="109" />
      <source>Copy output</source>
      <translation>Copy output</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="110" />
      <source>Copy id</source>
      <translation>Copy id</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/tasks_page.py" line="180" />
      <source>Showing %n recovered task(s)</source>
      <translation>
        <numerusform>Showing %n recovered task</numerusform>
        <numerusform>Showing %n recovered tasks</numerusform>
      </translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="222" />
      <source>Cancel requested.</source>
      <translation>Cancel requested.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="232" />
      <source>Delete task</source>
      <translation>Delete task</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="233" />
      <source>Delete task {id} and its events? This cannot be undone.</source>
      <translation>Delete task {id} and its events? This cannot be undone.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="245" />
      <source>Output copied.</source>
      <translation>Output copied.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="251" />
      <source>Task id copied.</source>
      <translation>Task id copied.</translation>
    </message>
  </context>
  <context>
    <name>TimelineModel</name>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="51" />
      <source>#</source>
      <translation>#</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="52" />
      <source>Time</source>
      <translation>Time</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="53" />
      <source>Since start</source>
      <translation>Since start</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="54" />
      <source>Type</source>
      <translation>Type</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="55" />
      <source>Details</source>
      <translation>Details</translation>
    </message>
  </context>
  <context>
    <name>TransferRow</name>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="51" />
      <source>Progress of {name}</source>
      <translation>Progress of {name}</translation>
    </message>
  </context>
  <context>
    <name>TrayIcon</name>
    <message>
      <location filename="../../desktop/ui/tray.py" line="27" />
      <source>Show</source>
      <translation>Show</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tray.py" line="29" />
      <source>Pause new tasks</source>
      <translation>Pause new tasks</translation>
    </message>
  </context>
  <context>
    <name>TryItPage</name>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="46" />
      <location filename="../../desktop/ui/try_it_page.py" line="70" />
      <source>Model</source>
      <translation>Model</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="48" />
      <location filename="../../desktop/ui/try_it_page.py" line="71" />
      <source>Prompt</source>
      <translation>Prompt</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="49" />
      <source>Write a haiku about SQLite</source>
      <translation>Write a haiku about SQLite</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="55" />
      <source>Maximum output tokens</source>
      <translation>Maximum output tokens</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="60" />
      <location filename="../../desktop/ui/try_it_page.py" line="75" />
      <source>Temperature</source>
      <translation>Temperature</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="61" />
      <source>Run in the background</source>
      <translation>Run in the background</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="64" />
      <location filename="../../desktop/ui/try_it_page.py" line="78" />
      <source>After a restart</source>
      <translation>After a restart</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="73" />
      <source>Max tokens</source>
      <translation>Max tokens</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="83" />
      <location filename="../../desktop/ui/try_it_page.py" line="84" />
      <source>Send</source>
      <translation>Send</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="86" />
      <location filename="../../desktop/ui/try_it_page.py" line="87" />
      <source>Stop</source>
      <translation>Stop</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="98" />
      <source>Model output</source>
      <translation>Model output</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="99" />
      <source>The answer appears here as it is written.</source>
      <translation>The answer appears here as it is written.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="136" />
      <source>Choose a model and write a prompt first.</source>
      <translation>Choose a model and write a prompt first.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="142" />
      <source>Queued…</source>
      <translation>Queued…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="168" />
      <source>Restarted; the answer starts over.</source>
      <translation>Restarted; the answer starts over.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="171" />
      <source>Failed: {message}</source>
      <translation>Failed: {message}</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="186" />
      <source>Something went wrong.</source>
      <translation>Something went wrong.</translation>
    </message>
  </context>
  <context>
    <name>Pages</name>
    <message>
      <source>Models</source>
      <translation>Models</translation>
    </message>
    <message>
      <source>Try it</source>
      <translation>Try it</translation>
    </message>
    <message>
      <source>Clients</source>
      <translation>Clients</translation>
    </message>
    <message>
      <source>{page} is not available in this version of the service.</source>
      <translation>{page} is not available in this version of the service.</translation>
    </message>
  </context>
  <context>
    <name>Startup</name>
    <message>
      <source>LMSP Desktop could not start</source>
      <translation>LMSP Desktop could not start</translation>
    </message>
    <message>
      <source>An unexpected problem stopped the service from starting. The details are in the log.</source>
      <translation>An unexpected problem stopped the service from starting. The details are in the log.</translation>
    </message>
    <message>
      <source>Close the other LMSP Desktop, or start this one with another data folder (--data-dir).</source>
      <translation>Close the other LMSP Desktop, or start this one with another data folder (--data-dir).</translation>
    </message>
    <message>
      <source>This data folder was written by a newer LMSP Desktop. Install that version again, or use another data folder.</source>
      <translation>This data folder was written by a newer LMSP Desktop. Install that version again, or use another data folder.</translation>
    </message>
    <message>
      <source>Restore the database from a backup, or move lmsp.sqlite3 out of the data folder to start with an empty one.</source>
      <translation>Restore the database from a backup, or move lmsp.sqlite3 out of the data folder to start with an empty one.</translation>
    </message>
    <message>
      <source>Fix the folder's permissions, or choose another one with --data-dir.</source>
      <translation>Fix the folder's permissions, or choose another one with --data-dir.</translation>
    </message>
    <message>
      <source>Stop the program that uses this port, or start with another one (--port, or Port in the settings).</source>
      <translation>Stop the program that uses this port, or start with another one (--port, or Port in the settings).</translation>
    </message>
  </context>
  <context>
    <name>ModelDialogs</name>
    <message>
      <source>The model's file in the model store will be deleted.</source>
      <translation>The model's file in the model store will be deleted.</translation>
    </message>
    <message>
      <source>The link in the model store will be removed; your original file is kept.</source>
      <translation>The link in the model store will be removed; your original file is kept.</translation>
    </message>
    <message>
      <source>Your file is kept where it is; only the entry is removed.</source>
      <translation>Your file is kept where it is; only the entry is removed.</translation>
    </message>
    <message>
      <source>Remove model</source>
      <translation>Remove model</translation>
    </message>
    <message>
      <source>Remove {name}?</source>
      <translation>Remove {name}?</translation>
    </message>
  </context>
</TS>