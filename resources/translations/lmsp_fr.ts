<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="fr_FR">
  <context>
    <name />
  </context>
  <context>
    <name>ClientsPage</name>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="39" />
      <source>Paired apps</source>
      <translation>Applications associées</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Name</source>
      <translation>Nom</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Scopes</source>
      <translation>Autorisations</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Paired</source>
      <translation>Associée le</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="41" />
      <source>Last used</source>
      <translation>Dernière utilisation</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="53" />
      <location filename="../../desktop/ui/clients_page.py" line="54" />
      <location filename="../../desktop/ui/clients_page.py" line="119" />
      <source>Revoke access</source>
      <translation>Révoquer l'accès</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="58" />
      <source>No app is paired yet. When an app asks to use your models, LMSP Desktop shows a pairing dialog.</source>
      <translation>Aucune application n'est encore associée. Quand une application demande à utiliser vos modèles, LMSP Desktop affiche une fenêtre d'association.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="88" />
      <source>never</source>
      <translation>jamais</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/clients_page.py" line="120" />
      <source>{name} will no longer be able to use LMSP Desktop. Revoke its access?</source>
      <translation>{name} ne pourra plus utiliser LMSP Desktop. Révoquer son accès ?</translation>
    </message>
  </context>
  <context>
    <name>DownloadDialog</name>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="74" />
      <source>Download a model</source>
      <translation>Télécharger un modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="77" />
      <source>Model URL</source>
      <translation>URL du modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="79" />
      <source>optional</source>
      <translation>facultatif</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="80" />
      <source>Expected SHA-256</source>
      <translation>SHA-256 attendu</translation>
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
      <translation>Importer un modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_dialogs.py" line="44" />
      <source>How should LMSP Desktop keep this file?</source>
      <translation>Comment LMSP Desktop doit-il conserver ce fichier ?</translation>
    </message>
    <message>
      <source>Copy it into the model store (safest; uses disk space)</source>
      <translation>Le copier dans le magasin de modèles (le plus sûr ; occupe de la place)</translation>
    </message>
    <message>
      <source>Link it into the model store (no extra space; same disk only)</source>
      <translation>Le lier dans le magasin de modèles (sans place en plus ; même disque seulement)</translation>
    </message>
    <message>
      <source>Keep it where it is (the model breaks if the file moves)</source>
      <translation>Le laisser où il est (le modèle ne marche plus si le fichier est déplacé)</translation>
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
      <translation>Tâches</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="123" />
      <source>Click to copy the service address</source>
      <translation>Cliquer pour copier l'adresse du service</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="124" />
      <source>Service address (copy)</source>
      <translation>Adresse du service (copier)</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="127" />
      <source>Running and queued tasks</source>
      <translation>Tâches en cours et en attente</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="129" />
      <source>Data folder</source>
      <translation>Dossier de données</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="145" />
      <source>Address copied to the clipboard.</source>
      <translation>Adresse copiée dans le presse-papiers.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="165" />
      <source>{running} running · {queued} queued</source>
      <translation>{running} en cours · {queued} en attente</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="174" />
      <source>&amp;File</source>
      <translation>&amp;Fichier</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="175" />
      <source>&amp;Settings…</source>
      <translation>&amp;Paramètres…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="180" />
      <source>&amp;Quit</source>
      <translation>&amp;Quitter</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/main_window.py" line="183" />
      <source>&amp;View</source>
      <translation>&amp;Affichage</translation>
    </message>
  </context>
  <context>
    <name>ModelTableModel</name>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="33" />
      <source>Name</source>
      <translation>Nom</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="34" />
      <source>Architecture</source>
      <translation>Architecture</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="35" />
      <source>Quantization</source>
      <translation>Quantification</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="36" />
      <source>Size</source>
      <translation>Taille</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="37" />
      <source>Context</source>
      <translation>Contexte</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="38" />
      <source>SHA-256</source>
      <translation>SHA-256</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/model_table_model.py" line="39" />
      <source>Status</source>
      <translation>État</translation>
    </message>
  </context>
  <context>
    <name>ModelsPage</name>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="88" />
      <source>Models</source>
      <translation>Modèles</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="103" />
      <source>Import…</source>
      <translation>Importer…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="104" />
      <source>Download from URL…</source>
      <translation>Télécharger depuis une URL…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="105" />
      <source>Verify</source>
      <translation>Vérifier</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="106" />
      <source>Remove</source>
      <translation>Retirer</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="116" />
      <source>Tip: drop a .gguf file here to import it.</source>
      <translation>Astuce : déposez un fichier .gguf ici pour l'importer.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="122" />
      <source>No model yet. Add the small starter model (Gemma 3 270M) to try it?</source>
      <translation>Aucun modèle pour l'instant. Ajouter le petit modèle de démarrage (Gemma 3 270M) pour essayer ?</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="125" />
      <source>Add starter model</source>
      <translation>Ajouter le modèle de démarrage</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="177" />
      <source>Import a model</source>
      <translation>Importer un modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="177" />
      <source>GGUF models (*.gguf)</source>
      <translation>Modèles GGUF (*.gguf)</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="221" />
      <source>{name}: {status}</source>
      <translation>{name} : {status}</translation>
    </message>
  </context>
  <context>
    <name>PairingDialog</name>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="45" />
      <source>Allow an app to use LMSP Desktop?</source>
      <translation>Autoriser une application à utiliser LMSP Desktop ?</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="50" />
      <source>&lt;b&gt;{name}&lt;/b&gt; wants to use your models.</source>
      <translation>&lt;b&gt;{name}&lt;/b&gt; souhaite utiliser vos modèles.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="55" />
      <source>App name</source>
      <translation>Nom de l'application</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="64" />
      <source>Pairing code</source>
      <translation>Code d'association</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="65" />
      <source>Check that the app shows the same code:</source>
      <translation>Vérifiez que l'application affiche le même code :</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="67" />
      <source>It asks to:</source>
      <translation>Elle demande à :</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="79" />
      <source>Time left</source>
      <translation>Temps restant</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="83" />
      <location filename="../../desktop/ui/pairing_dialog.py" line="84" />
      <source>Deny</source>
      <translation>Refuser</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="85" />
      <location filename="../../desktop/ui/pairing_dialog.py" line="86" />
      <source>Allow</source>
      <translation>Autoriser</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/pairing_dialog.py" line="119" />
      <source>%n more request(s) waiting</source>
      <translation>
        <numerusform>%n autre demande en attente</numerusform>
        <numerusform>%n autres demandes en attente</numerusform>
      </translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_dialog.py" line="145" />
      <source>Expires in {seconds} s</source>
      <translation>Expire dans {seconds} s</translation>
    </message>
    <message>
      <source>See the list of models</source>
      <translation>Voir la liste des modèles</translation>
    </message>
    <message>
      <source>Import, download and remove models</source>
      <translation>Importer, télécharger et retirer des modèles</translation>
    </message>
    <message>
      <source>Generate text with your models</source>
      <translation>Générer du texte avec vos modèles</translation>
    </message>
    <message>
      <source>Read the responses it created</source>
      <translation>Lire les réponses qu'elle a créées</translation>
    </message>
    <message>
      <source>See its tasks</source>
      <translation>Voir ses tâches</translation>
    </message>
    <message>
      <source>Cancel and delete its tasks</source>
      <translation>Annuler et supprimer ses tâches</translation>
    </message>
  </context>
  <context>
    <name>PairingQueue</name>
    <message>
      <location filename="../../desktop/ui/pairing_queue.py" line="72" />
      <source>Pairing request</source>
      <translation>Demande d'association</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/pairing_queue.py" line="73" />
      <source>{name} wants to use your models.</source>
      <translation>{name} souhaite utiliser vos modèles.</translation>
    </message>
  </context>
  <context>
    <name>PhaseBar</name>
    <message>
      <location filename="../../desktop/ui/phase_bar.py" line="95" />
      <source>Time spent in each phase</source>
      <translation>Temps passé dans chaque phase</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/phase_bar.py" line="108" />
      <source>%n restart(s)</source>
      <translation>
        <numerusform>%n redémarrage</numerusform>
        <numerusform>%n redémarrages</numerusform>
      </translation>
    </message>
  </context>
  <context>
    <name>RecoveryBanner</name>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="31" />
      <source>Recovery report</source>
      <translation>Rapport de reprise</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="33" />
      <source>Show these tasks</source>
      <translation>Afficher ces tâches</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="38" />
      <source>Dismiss</source>
      <translation>Fermer</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="39" />
      <source>Dismiss the recovery report</source>
      <translation>Fermer le rapport de reprise</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/recovery_banner.py" line="54" />
      <source>After the last session ended unexpectedly: </source>
      <translation>Après l'arrêt inattendu de la dernière session : </translation>
    </message>
  </context>
  <context>
    <name>ServiceBridge</name>
    <message>
      <location filename="../../desktop/ui/bridge.py" line="250" />
      <source>Something went wrong; the details are in the log.</source>
      <translation>Une erreur s'est produite ; les détails sont dans le journal.</translation>
    </message>
  </context>
  <context>
    <name>SettingsDialog</name>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="43" />
      <source>Settings</source>
      <translation>Paramètres</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="67" />
      <source>This address is not loopback: other computers on the network will be able to reach the service.</source>
      <translation>Cette adresse n'est pas locale : d'autres ordinateurs du réseau pourront joindre le service.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="80" />
      <location filename="../../desktop/ui/settings_dialog.py" line="81" />
      <source>Open data folder</source>
      <translation>Ouvrir le dossier de données</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="85" />
      <source>Data folder</source>
      <translation>Dossier de données</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/settings_dialog.py" line="118" />
      <source>comma separated</source>
      <translation>séparés par des virgules</translation>
    </message>
    <message>
      <source>Port</source>
      <translation>Port</translation>
    </message>
    <message>
      <source>Bind address</source>
      <translation>Adresse d'écoute</translation>
    </message>
    <message>
      <source>Keep finished tasks (days)</source>
      <translation>Garder les tâches terminées (jours)</translation>
    </message>
    <message>
      <source>Keep idempotency keys (hours)</source>
      <translation>Garder les clés d'idempotence (heures)</translation>
    </message>
    <message>
      <source>Default restart policy</source>
      <translation>Reprise par défaut</translation>
    </message>
    <message>
      <source>Max attempts</source>
      <translation>Tentatives max.</translation>
    </message>
    <message>
      <source>Tasks at once</source>
      <translation>Tâches simultanées</translation>
    </message>
    <message>
      <source>Snapshot every (tokens)</source>
      <translation>Instantané tous les (jetons)</translation>
    </message>
    <message>
      <source>Snapshot interval (ms)</source>
      <translation>Intervalle des instantanés (ms)</translation>
    </message>
    <message>
      <source>Allowed Host names</source>
      <translation>Noms d'hôte autorisés</translation>
    </message>
    <message>
      <source>Allowed origins</source>
      <translation>Origines autorisées</translation>
    </message>
  </context>
  <context>
    <name>TaskDetail</name>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="41" />
      <location filename="../../desktop/ui/task_detail.py" line="91" />
      <source>Select a task to see its timeline.</source>
      <translation>Sélectionnez une tâche pour voir sa chronologie.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="47" />
      <source>Event timeline</source>
      <translation>Chronologie des événements</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="61" />
      <source>Output so far</source>
      <translation>Sortie jusqu'ici</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_detail.py" line="62" />
      <source>No output yet.</source>
      <translation>Pas encore de sortie.</translation>
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
      <translation>Type</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="100" />
      <source>Client</source>
      <translation>Client</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="101" />
      <source>Model</source>
      <translation>Modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="102" />
      <source>Status</source>
      <translation>État</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="103" />
      <source>Progress</source>
      <translation>Progression</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="104" />
      <source>Tokens/s</source>
      <translation>Jetons/s</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="105" />
      <source>Attempt</source>
      <translation>Tentative</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="106" />
      <source>Created</source>
      <translation>Créée</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="107" />
      <source>Duration</source>
      <translation>Durée</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/task_table_model.py" line="285" />
      <source>this computer</source>
      <translation>cet ordinateur</translation>
    </message>
  </context>
  <context>
    <name>TasksPage</name>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="57" />
      <source>Filter by status</source>
      <translation>Filtrer par état</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="57" />
      <source>All statuses</source>
      <translation>Tous les états</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="60" />
      <source>Filter by kind</source>
      <translation>Filtrer par type</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="60" />
      <source>All kinds</source>
      <translation>Tous les types</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="63" />
      <source>Client id</source>
      <translation>ID du client</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="64" />
      <source>Filter by client</source>
      <translation>Filtrer par client</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="68" />
      <source>Search by id</source>
      <translation>Rechercher par ID</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="69" />
      <source>Search tasks by id</source>
      <translation>Rechercher des tâches par ID</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="74" />
      <source>Show all tasks</source>
      <translation>Afficher toutes les tâches</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="88" />
      <source>Tasks</source>
      <translation>Tâches</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="107" />
      <source>Cancel</source>
      <translation>Annuler</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="108" />
      <source>Delete</source>
      <translation>Supprimer</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="109" />
      <source>Copy output</source>
      <translation>Copier la sortie</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="110" />
      <source>Copy id</source>
      <translation>Copier l'ID</translation>
    </message>
    <message numerus="yes">
      <location filename="../../desktop/ui/tasks_page.py" line="180" />
      <source>Showing %n recovered task(s)</source>
      <translation>
        <numerusform>%n tâche reprise affichée</numerusform>
        <numerusform>%n tâches reprises affichées</numerusform>
      </translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="222" />
      <source>Cancel requested.</source>
      <translation>Annulation demandée.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="232" />
      <source>Delete task</source>
      <translation>Supprimer la tâche</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="233" />
      <source>Delete task {id} and its events? This cannot be undone.</source>
      <translation>Supprimer la tâche {id} et ses événements ? C'est définitif.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="245" />
      <source>Output copied.</source>
      <translation>Sortie copiée.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tasks_page.py" line="251" />
      <source>Task id copied.</source>
      <translation>ID de la tâche copié.</translation>
    </message>
  </context>
  <context>
    <name>TimelineModel</name>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="51" />
      <source>#</source>
      <translation>n°</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="52" />
      <source>Time</source>
      <translation>Heure</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="53" />
      <source>Since start</source>
      <translation>Depuis le début</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="54" />
      <source>Type</source>
      <translation>Type</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/timeline_model.py" line="55" />
      <source>Details</source>
      <translation>Détails</translation>
    </message>
  </context>
  <context>
    <name>TransferRow</name>
    <message>
      <location filename="../../desktop/ui/models_page.py" line="51" />
      <source>Progress of {name}</source>
      <translation>Progression de {name}</translation>
    </message>
  </context>
  <context>
    <name>TrayIcon</name>
    <message>
      <location filename="../../desktop/ui/tray.py" line="27" />
      <source>Show</source>
      <translation>Afficher</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/tray.py" line="29" />
      <source>Pause new tasks</source>
      <translation>Suspendre les nouvelles tâches</translation>
    </message>
  </context>
  <context>
    <name>TryItPage</name>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="46" />
      <location filename="../../desktop/ui/try_it_page.py" line="70" />
      <source>Model</source>
      <translation>Modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="48" />
      <location filename="../../desktop/ui/try_it_page.py" line="71" />
      <source>Prompt</source>
      <translation>Invite</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="49" />
      <source>Write a haiku about SQLite</source>
      <translation>Écris un haïku sur SQLite</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="55" />
      <source>Maximum output tokens</source>
      <translation>Nombre maximal de jetons en sortie</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="60" />
      <location filename="../../desktop/ui/try_it_page.py" line="75" />
      <source>Temperature</source>
      <translation>Température</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="61" />
      <source>Run in the background</source>
      <translation>Exécuter en arrière-plan</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="64" />
      <location filename="../../desktop/ui/try_it_page.py" line="78" />
      <source>After a restart</source>
      <translation>Après un redémarrage</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="73" />
      <source>Max tokens</source>
      <translation>Jetons max.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="83" />
      <location filename="../../desktop/ui/try_it_page.py" line="84" />
      <source>Send</source>
      <translation>Envoyer</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="86" />
      <location filename="../../desktop/ui/try_it_page.py" line="87" />
      <source>Stop</source>
      <translation>Arrêter</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="98" />
      <source>Model output</source>
      <translation>Sortie du modèle</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="99" />
      <source>The answer appears here as it is written.</source>
      <translation>La réponse s'affiche ici au fil de l'écriture.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="136" />
      <source>Choose a model and write a prompt first.</source>
      <translation>Choisissez d'abord un modèle et écrivez une invite.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="142" />
      <source>Queued…</source>
      <translation>En attente…</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="168" />
      <source>Restarted; the answer starts over.</source>
      <translation>Redémarrée ; la réponse recommence.</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="171" />
      <source>Failed: {message}</source>
      <translation>Échec : {message}</translation>
    </message>
    <message>
      <location filename="../../desktop/ui/try_it_page.py" line="186" />
      <source>Something went wrong.</source>
      <translation>Une erreur s'est produite.</translation>
    </message>
  </context>
  <context>
    <name>Pages</name>
    <message>
      <source>Models</source>
      <translation>Modèles</translation>
    </message>
    <message>
      <source>Try it</source>
      <translation>Essayer</translation>
    </message>
    <message>
      <source>Clients</source>
      <translation>Clients</translation>
    </message>
    <message>
      <source>{page} is not available in this version of the service.</source>
      <translation>{page} n'est pas disponible dans cette version du service.</translation>
    </message>
  </context>
  <context>
    <name>Startup</name>
    <message>
      <source>LMSP Desktop could not start</source>
      <translation>LMSP Desktop n'a pas pu démarrer</translation>
    </message>
    <message>
      <source>An unexpected problem stopped the service from starting. The details are in the log.</source>
      <translation>Un problème inattendu a empêché le service de démarrer. Les détails sont dans le journal.</translation>
    </message>
    <message>
      <source>Close the other LMSP Desktop, or start this one with another data folder (--data-dir).</source>
      <translation>Fermez l'autre LMSP Desktop, ou lancez celui-ci avec un autre dossier de données (--data-dir).</translation>
    </message>
    <message>
      <source>This data folder was written by a newer LMSP Desktop. Install that version again, or use another data folder.</source>
      <translation>Ce dossier de données a été écrit par une version plus récente de LMSP Desktop. Réinstallez cette version, ou utilisez un autre dossier de données.</translation>
    </message>
    <message>
      <source>Restore the database from a backup, or move lmsp.sqlite3 out of the data folder to start with an empty one.</source>
      <translation>Restaurez la base depuis une sauvegarde, ou sortez lmsp.sqlite3 du dossier de données pour repartir d'une base vide.</translation>
    </message>
    <message>
      <source>Fix the folder's permissions, or choose another one with --data-dir.</source>
      <translation>Corrigez les droits du dossier, ou choisissez-en un autre avec --data-dir.</translation>
    </message>
    <message>
      <source>Stop the program that uses this port, or start with another one (--port, or Port in the settings).</source>
      <translation>Arrêtez le programme qui utilise ce port, ou démarrez avec un autre (--port, ou Port dans les paramètres).</translation>
    </message>
  </context>
  <context>
    <name>ModelDialogs</name>
    <message>
      <source>The model's file in the model store will be deleted.</source>
      <translation>Le fichier du modèle dans le magasin de modèles sera supprimé.</translation>
    </message>
    <message>
      <source>The link in the model store will be removed; your original file is kept.</source>
      <translation>Le lien dans le magasin de modèles sera retiré ; votre fichier d'origine est conservé.</translation>
    </message>
    <message>
      <source>Your file is kept where it is; only the entry is removed.</source>
      <translation>Votre fichier reste où il est ; seule l'entrée est retirée.</translation>
    </message>
    <message>
      <source>Remove model</source>
      <translation>Retirer le modèle</translation>
    </message>
    <message>
      <source>Remove {name}?</source>
      <translation>Retirer {name} ?</translation>
    </message>
  </context>
</TS>